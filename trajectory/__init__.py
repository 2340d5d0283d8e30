"""iterations.jsonl (the record of every cycle), the HTML chart, and the live view."""
