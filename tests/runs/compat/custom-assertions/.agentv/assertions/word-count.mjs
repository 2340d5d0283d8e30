// A custom assertion type as @agentv/sdk's defineAssertion writes it, in plain JavaScript: the code-grader
// payload on stdin, {score, assertions} on stdout.
import { readFileSync } from 'node:fs';

const input = JSON.parse(readFileSync(0, 'utf8'));
const words = (input.output ?? '').trim().split(/\s+/).filter(Boolean).length;
const pass = words >= 3 && input.config === null;
console.log(JSON.stringify({
  score: pass ? 1 : Math.min(words / 3, 0.9),
  assertions: [{ text: `Output has ${words} words`, passed: pass }],
}, null, 2));
