"""The grader LLM's prompts, word for word AgentV 4.42.4's (so one grader reply table serves both tools).

`template_variables` are the only `{{names}}` AgentV fills; any other is left
as written. An inline prompt with none of them is criteria for the default
template, not a template (AgentV's containsTemplateVariables).
"""

from __future__ import annotations

import re
from typing import Any

from autoresearch.runs.graders.payload import js_json
from autoresearch.runs.js import js_number

VARIABLE = re.compile(r"\{\{\s*([a-zA-Z0-9_]+)\s*\}\}")
TEMPLATE_VARIABLES = (
    "expected_output",
    "criteria",
    "metadata",
    "metadata_json",
    "rubrics",
    "rubrics_json",
    "input",
    "output",
    "file_changes",
    "tool_calls",
)

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

FREEFORM_SYSTEM = "\n".join(
    [
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
    ]
)

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


SCORE_RANGE_SYSTEM = """You are an expert grader. Score the candidate answer on each criterion.
You must return a valid JSON object matching this schema:
{
  "checks": [
    {
      "id": "string (criterion id)",
      "score": integer (0-10),
      "reasoning": "string (brief explanation for score)"
    }
  ],
  "overall_reasoning": "string (summary, optional)"
}

Important: The "score" must be an integer from 0 to 10 that falls within one of the defined score ranges for that criterion."""

OPERATOR_GUIDANCE = {
    "correctness": "Correctness: mark satisfied only when the answer positively supports or fulfills the outcome. Omission or contradiction should not satisfy it.",
    "contradiction": "Contradiction guard: mark satisfied when the answer does not make a claim that contradicts the outcome. Do not require the answer to mention the outcome; mark unsatisfied only for incompatible claims.",
}


def _guidance(rubrics: list[dict[str, Any]]) -> list[str]:
    return [OPERATOR_GUIDANCE[op] for op in dict.fromkeys(r["operator"] for r in rubrics if r.get("operator"))]


def _test_sections(
    opening: list[str], question: str, answer: str, reference: str, criteria: str, file_changes: str | None = None
) -> list[str]:
    lines = [*opening, "", "[[ ## question ## ]]", question, "", "[[ ## criteria ## ]]", criteria, ""]
    if reference.strip():
        lines += ["[[ ## reference_answer ## ]]", reference, ""]
    lines += ["[[ ## answer ## ]]", answer, ""]
    return lines + ["[[ ## file_changes ## ]]", file_changes, ""] if file_changes else lines


def with_file_changes(prompt: str, file_changes: str | None) -> str:
    """AgentV's default free-form prompt with the workspace's edits appended, when there are any."""
    return f"{prompt}\n\n[[ ## file_changes ## ]]\n{file_changes}" if file_changes else prompt


def has_variables(text: str) -> bool:
    return any(m.group(1) in TEMPLATE_VARIABLES for m in VARIABLE.finditer(text))


def substitute(template: str, values: dict[str, str]) -> str:
    return VARIABLE.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def variables(
    question: str,
    answer: str,
    reference: str,
    criteria: str,
    metadata: Any,
    rubrics: list[dict[str, Any]] | None,
    file_changes: str | None = None,
) -> dict[str, str]:
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
        "file_changes": file_changes or "",
        "tool_calls": "",
    }


def rubric_prompt(
    question: str,
    answer: str,
    reference: str,
    criteria: str,
    rubrics: list[dict[str, Any]],
    file_changes: str | None = None,
) -> str:
    """AgentV's buildRubricPrompt: the test (and the workspace's edits), then one line per rubric item with its labels."""
    lines = _test_sections(
        ["You are an expert grader. Evaluate the candidate answer against each rubric item below."],
        question,
        answer,
        reference,
        criteria,
        file_changes,
    )
    lines.append("[[ ## rubrics ## ]]")
    guidance = _guidance(rubrics)
    if guidance:
        lines += ["", "Operator guidance:", *(f"- {g}" for g in guidance), ""]
    for item in rubrics:
        required = " (REQUIRED)" if item.get("required") else ""
        weight = f" (weight: {js_number(item['weight'])})" if item["weight"] != 1.0 else ""
        operator = f" (operator: {item['operator']})" if item.get("operator") else ""
        lines.append(f"- [{item['id']}]{required}{weight}{operator}: {item.get('outcome', '')}")
    lines += ["", "For each rubric, determine if it is satisfied and provide brief reasoning."]
    return "\n".join(lines)


def score_range_prompt(
    question: str,
    answer: str,
    reference: str,
    criteria: str,
    rubrics: list[dict[str, Any]],
    file_changes: str | None = None,
) -> str:
    """AgentV's buildScoreRangePrompt: the test (and the workspace's edits), then each criterion with its ranges."""
    opening = [
        "You are an expert grader. Score the candidate answer on each criterion below using the provided score ranges.",
        "For each criterion, output an integer score from 0 to 10 based on which score range best matches the answer.",
    ]
    lines = _test_sections(opening, question, answer, reference, criteria, file_changes)
    lines.append("[[ ## scoring_criteria ## ]]")
    for item in rubrics:
        weight = f" (weight: {js_number(item['weight'])})" if item["weight"] != 1.0 else ""
        minimum = item.get("min_score", item.get("required_min_score"))
        required = f" [REQUIRED: min score {js_number(minimum)}]" if minimum is not None else ""
        lines += ["", f"### Criterion: {item['id']}{weight}{required}"]
        if item.get("operator"):
            lines.append(f"Operator: {item['operator']}")
        if item.get("outcome"):
            lines.append(f"Description: {item['outcome']}")
        if item.get("score_ranges"):
            lines.append("Score ranges:")
            for band in item["score_ranges"]:
                low, high = band["score_range"]
                lines.append(f"  - Score {low if low == high else f'{low}-{high}'}: {band['outcome']}")
    guidance = _guidance(rubrics)
    if guidance:
        lines += ["", *guidance]
    lines += ["", "For each criterion, provide an integer score 0-10 that matches one of its defined score ranges."]
    return "\n".join(lines)


def repair_prompt(error: str, reply: str) -> str:
    return "\n".join(
        [
            "The following evaluation response has useful grading content but invalid JSON structure.",
            "Repair it to satisfy the schema in the system prompt.",
            "Preserve the evaluation meaning, do not re-grade the answer, and return only a single JSON object.",
            "",
            "Validation error:",
            error,
            "",
            "Invalid response:",
            reply,
        ]
    )
