import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);

// ../../packages/core/dist/chunk-F4TEFL4T.js
function shellEscapePath(value) {
  if (process.platform === "win32") {
    return `"${value.replaceAll('"', '""')}"`;
  }
  return `'${value.replaceAll("'", `'"'"'`)}'`;
}
async function execFileWithStdin(argv, stdinPayload, options = {}) {
  if (argv.length === 0) {
    throw new Error("Executable argv must include at least one entry");
  }
  return execFileWithStdinNode(argv, stdinPayload, options);
}
async function execFileWithStdinNode(argv, stdinPayload, options) {
  const { spawn } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    const [cmd, ...args] = argv;
    const child = spawn(cmd, args, {
      cwd: options.cwd,
      stdio: ["pipe", "pipe", "pipe"],
      // Merge additional env vars with process.env
      env: options.env ? { ...process.env, ...options.env } : process.env
    });
    const stdoutChunks = [];
    const stderrChunks = [];
    child.stdout?.on("data", (chunk) => stdoutChunks.push(chunk));
    child.stderr?.on("data", (chunk) => stderrChunks.push(chunk));
    let timedOut = false;
    const timeout = options.timeoutMs !== void 0 ? setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs) : void 0;
    child.on("error", (error) => {
      if (timeout !== void 0) clearTimeout(timeout);
      reject(error);
    });
    child.on("close", (code) => {
      if (timeout !== void 0) clearTimeout(timeout);
      if (timedOut) {
        reject(new Error(`Process timed out after ${options.timeoutMs}ms`));
        return;
      }
      const stdout = Buffer.concat(stdoutChunks).toString("utf8").replace(/\r\n/g, "\n");
      const stderr = Buffer.concat(stderrChunks).toString("utf8").replace(/\r\n/g, "\n");
      resolve({
        stdout,
        stderr,
        exitCode: code ?? 0
      });
    });
    if (child.stdin) {
      child.stdin.write(stdinPayload);
      child.stdin.end();
    }
  });
}
async function execShellWithStdin(command, stdinPayload, options = {}) {
  const { mkdir, readFile, rm, writeFile } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const path = await import("node:path");
  const { randomUUID } = await import("node:crypto");
  const dir = path.join(tmpdir(), `agentv-exec-${randomUUID()}`);
  await mkdir(dir, { recursive: true });
  const stdinPath = path.join(dir, "stdin.txt");
  const stdoutPath = path.join(dir, "stdout.txt");
  const stderrPath = path.join(dir, "stderr.txt");
  await writeFile(stdinPath, stdinPayload, "utf8");
  const wrappedCommand = process.platform === "win32" ? `(${command}) < ${shellEscapePath(stdinPath)} > ${shellEscapePath(stdoutPath)} 2> ${shellEscapePath(stderrPath)}` : `(${command}) < ${shellEscapePath(stdinPath)} > ${shellEscapePath(stdoutPath)} 2> ${shellEscapePath(stderrPath)}`;
  const { spawn } = await import("node:child_process");
  try {
    const exitCode = await new Promise((resolve, reject) => {
      const child = spawn(wrappedCommand, {
        shell: true,
        cwd: options.cwd,
        stdio: ["ignore", "ignore", "ignore"],
        // Merge additional env vars with process.env
        env: options.env ? { ...process.env, ...options.env } : process.env
      });
      const timeout = options.timeoutMs ? setTimeout(() => {
        child.kill();
        reject(new Error(`Process timed out after ${options.timeoutMs}ms`));
      }, options.timeoutMs) : void 0;
      child.on("error", (error) => {
        if (timeout !== void 0) {
          clearTimeout(timeout);
        }
        reject(error);
      });
      child.on("exit", (code) => {
        if (timeout !== void 0) {
          clearTimeout(timeout);
        }
        resolve(code ?? 0);
      });
    });
    const stdout = (await readFile(stdoutPath, "utf8")).replace(/\r\n/g, "\n");
    const stderr = (await readFile(stderrPath, "utf8")).replace(/\r\n/g, "\n");
    return { stdout, stderr, exitCode };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export {
  execFileWithStdin,
  execShellWithStdin
};
//# sourceMappingURL=chunk-7BGERE6L.js.map