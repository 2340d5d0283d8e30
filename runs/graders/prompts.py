"""The grader LLM's prompts: the default one, custom templates, and the JSON each must answer."""

from __future__ import annotations

import re

FREEFORM_SYSTEM = (
    "You are a strict, fair grader of an AI system's answer. Reply with only a JSON object, no prose: "
    '{"score": <number from 0 to 1>, "assertions": [{"text": "<what you checked>", "passed": <true|false>, '
    '"evidence": "<short quote or reason>"}], "reasoning": "<one or two sentences>"}'
)
RUBRIC_SYSTEM = (
    "You are a strict, fair grader of an AI system's answer against a rubric. Reply with only a JSON object, no prose: "
    '{"checks": [{"id": "<rubric id>", "satisfied": <true|false>, "reasoning": "<short reason>"}], '
    '"overall_reasoning": "<one sentence>"} with one check per rubric id.'
)
VARIABLE = re.compile(r"\{\{\s*([A-Za-z_]+)\s*\}\}")


def default_prompt(question: str, answer: str, expected: str, criteria: str) -> str:
    sections = [("criteria", criteria or "Judge whether the answer correctly and completely does what was asked."), ("question", question)]
    if expected:
        sections.append(("reference_answer", expected))
    sections.append(("answer", answer))
    return "\n\n".join(f"[[ ## {name} ## ]]\n{text}" for name, text in sections)


def fill(template: str, question: str, answer: str, expected: str, criteria: str) -> str:
    """`{{input}}`, `{{output}}`, `{{expected_output}}`, `{{criteria}}` (and AgentV's older names) filled in."""
    values = {
        "input": question, "question": question,
        "output": answer, "answer": answer, "candidate_answer": answer,
        "expected_output": expected, "reference_answer": expected,
        "criteria": criteria,
    }
    return VARIABLE.sub(lambda m: values.get(m.group(1), m.group(0)), template)
