// Loaded into AgentV's node (NODE_OPTIONS=--import=<this file>) by tests/runs/test_docker_environment5.py: after
// starting a `docker` command, node goes on only once that command has exited or waits (for its input, for what it
// runs), as node descheduled on a busy machine would for as long. AgentV writes a command's input after starting it;
// a stand-in that had exited by then made that write fail with an EPIPE AgentV does not handle, and its process died.
import childProcess from "node:child_process";
import { readFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const spawn = childProcess.spawn;
const LIMIT_MS = 10_000; // a command still running by then is left to run: node goes on
const pause = new Int32Array(new SharedArrayBuffer(4));

function running(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return ["R", "D"].includes(stat[stat.lastIndexOf(")") + 2]); // its state, after the command's name
  } catch {
    return false; // reaped
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
