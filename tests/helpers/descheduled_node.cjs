// Loaded into AgentV's node (NODE_OPTIONS=--require=<this file>) by the parity tests with a stand-in docker: after
// starting a `docker` command, node goes on only once that command has exited or waits (for its input, for what it
// runs), as node descheduled on a busy machine would for as long. AgentV writes a command's input after starting it;
// a stand-in that had exited by then made that write fail with an EPIPE AgentV does not handle, and its process died.
// CommonJS and --require: every node AgentV supports (>= 20.0) takes them in NODE_OPTIONS (--import: 20.6 on).
const childProcess = require("node:child_process");
const { readFileSync } = require("node:fs");
const { syncBuiltinESMExports } = require("node:module");

const spawn = childProcess.spawn;
const LIMIT_MS = 10_000; // a command still running by then is left to run: node goes on
const pause = new Int32Array(new SharedArrayBuffer(4));

function running(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return ["R", "D"].includes(stat[stat.lastIndexOf(")") + 2]); // its state, after the command's name
  } catch {
    return false; // reaped, or no /proc: node goes on at once
  }
}

childProcess.spawn = function (command, ...rest) {
  const child = spawn.call(this, command, ...rest);
  const until = Date.now() + LIMIT_MS;
  while (command === "docker" && child.pid && running(child.pid) && Date.now() < until) {
    Atomics.wait(pause, 0, 0, 1); // 1 ms, node's thread asleep
  }
  return child;
};
syncBuiltinESMExports(); // AgentV's `import { spawn }` sees this one
