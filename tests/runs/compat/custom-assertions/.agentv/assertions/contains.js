// Named like a built-in type: AgentV never lets a discovered file override one, so this never runs.
console.log(JSON.stringify({ score: 0.123, assertions: [] }));
