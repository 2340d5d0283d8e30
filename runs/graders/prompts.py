"""The grader LLM's prompts, word for word AgentV 4.42.4's (so one grader reply table serves both tools).

`template_variables` are the only `{{names}}` AgentV fills; any other is left
as written. An inline prompt with none of them is criteria for the default
template, not a template (AgentV's containsTemplateVariables).
"""

from __future__ import annotations

import re
from typing import Any

from runs.graders.payload import js_json

VARIABLE = re.compile(r"\{\{\s*([a-zA-Z0-9_]+)\s*\}\}")
TEMPLATE_VARIABLES = ("expected_output", "criteria", "metadata", "metadata_json", "rubrics", "rubrics_json", "input", "output", "file_changes", "tool_calls")

DEFAULT_TEMPLATE = """You are an expert grader. Your goal is to grade the answer based on how well it achieves the criteria for the original task.

Use the reference_answer as a gold standard for a high-quality response (if provided). The reference_answer may be a simple text response, or it may contain a sequence of expected agent messages including tool calls. When it contains multiple messages, the last message represents the final expected answer. The answer does not need to match it verbatim, but should capture the key points and follow the same spirit.

Be concise and focused in your evaluation. Provide succinct, specific feedback rather than verbose explanations.

[[ ## criteria ## ]]
{{criteria}}

[[ ## question ## ]]
{{input}}

[[ ## reference_answer ## ]]
{{expected_output}}

[[ ## answer ## ]]
{{output}}"""

FREEFORM_SYSTEM = "\n".join([
    "You must respond with a single JSON object matching this schema:",
    "",
    "{",
    '  "score": <number between 0.0 and 1.0>,',
    '  "assertions": [',
    "    {",
    '      "text": "<brief description of what was checked>",',
    '      "passed": <boolean>,',
    '      "evidence": "<concise evidence, 1-2 sentences, optional>"',
    "    }",
    "  ],",
    '  "details": {<optional object with domain-specific structured metrics>}',
    "}",
])

RUBRIC_SYSTEM = """You are an expert grader. Evaluate the candidate answer against each rubric item.
You must return a valid JSON object matching this schema:
{
  "checks": [
    {
      "id": "string (rubric id)",
      "satisfied": boolean,
      "reasoning": "string (brief explanation)"
    }
  ],
  "overall_reasoning": "string (summary)"
}"""


def has_variables(text: str) -> bool:
    return any(m.group(1) in TEMPLATE_VARIABLES for m in VARIABLE.finditer(text))


def substitute(template: str, values: dict[str, str]) -> str:
    return VARIABLE.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def variables(question: str, answer: str, reference: str, criteria: str, metadata: Any, rubrics: list[dict] | None) -> dict[str, str]:
    """AgentV's buildTemplateVariables: the texts trimmed, metadata and rubrics as JSON (indented and compact)."""
    return {
        "input": question.strip(),
        "output": answer.strip(),
        "expected_output": reference.strip(),
        "criteria": criteria.strip(),
        "metadata": js_json(metadata, indent=2) if metadata else "",
        "metadata_json": js_json(metadata) if metadata else "",
        "rubrics": js_json(rubrics, indent=2) if rubrics is not None else "",
        "rubrics_json": js_json(rubrics) if rubrics is not None else "",
        "file_changes": "",
        "tool_calls": "",
    }


def rubric_prompt(question: str, answer: str, reference: str, criteria: str, rubrics: list[dict]) -> str:
    """AgentV's buildRubricPrompt: the test, then one line per rubric item with its labels."""
    lines = [
        "You are an expert grader. Evaluate the candidate answer against each rubric item below.",
        "",
        "[[ ## question ## ]]",
        question,
        "",
        "[[ ## criteria ## ]]",
        criteria,
        "",
    ]
    if reference.strip():
        lines += ["[[ ## reference_answer ## ]]", reference, ""]
    lines += ["[[ ## answer ## ]]", answer, "", "[[ ## rubrics ## ]]"]
    for item in rubrics:
        required = " (REQUIRED)" if item["required"] else ""
        weight = f" (weight: {js_number(item['weight'])})" if item["weight"] != 1.0 else ""
        lines.append(f"- [{item['id']}]{required}{weight}: {item['outcome']}")
    lines += ["", "For each rubric, determine if it is satisfied and provide brief reasoning."]
    return "\n".join(lines)


def repair_prompt(error: str, reply: str) -> str:
    return "\n".join([
        "The following evaluation response has useful grading content but invalid JSON structure.",
        "Repair it to satisfy the schema in the system prompt.",
        "Preserve the evaluation meaning, do not re-grade the answer, and return only a single JSON object.",
        "",
        "Validation error:",
        error,
        "",
        "Invalid response:",
        reply,
    ])


def js_number(value: float) -> str:
    """A number as JavaScript prints it: 2 not 2.0."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))
