import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);

// ../../packages/core/dist/chunk-YIO5V5IU.js
var DefaultCommandExecutor = class {
  async exec(argv, options = {}) {
    const { execFileWithStdin } = await import("./exec-4HFFRQ3B-AXDMJNLJ.js");
    return execFileWithStdin(argv, options.stdin ?? "", {
      timeoutMs: options.timeoutMs
    });
  }
};
var DEFAULT_TIMEOUT_S = 1800;
function buildGitCommand(target, args) {
  if (!target?.path) {
    return ["git", ...args];
  }
  return ["git", "-C", target.path, ...args];
}
var DockerWorkspaceProvider = class {
  config;
  executor;
  timeoutMs;
  constructor(config, executor) {
    this.config = config;
    this.executor = executor ?? new DefaultCommandExecutor();
    this.timeoutMs = (config.timeout ?? DEFAULT_TIMEOUT_S) * 1e3;
  }
  /** Check whether the Docker CLI is available on the host. */
  async isDockerAvailable() {
    try {
      const result = await this.executor.exec(
        ["docker", "version", "--format", "{{.Server.Version}}"],
        {
          timeoutMs: 1e4
        }
      );
      return result.exitCode === 0;
    } catch {
      return false;
    }
  }
  /** Pull the configured Docker image. No-op if already cached locally. */
  async pullImage() {
    const inspectResult = await this.executor.exec(
      ["docker", "image", "inspect", this.config.image],
      {
        timeoutMs: 1e4
      }
    );
    if (inspectResult.exitCode === 0) {
      return;
    }
    const result = await this.executor.exec(["docker", "pull", this.config.image], {
      timeoutMs: this.timeoutMs
    });
    if (result.exitCode !== 0) {
      throw new Error(`docker pull failed (exit ${result.exitCode}): ${result.stderr.trim()}`);
    }
  }
  /** Create a stopped container from the configured image with resource limits. Returns container ID. */
  async createContainer() {
    const argv = ["docker", "create"];
    if (this.config.memory) {
      argv.push(`--memory=${this.config.memory}`);
    }
    if (this.config.cpus !== void 0) {
      argv.push(`--cpus=${this.config.cpus}`);
    }
    argv.push(this.config.image, "sleep", "infinity");
    const result = await this.executor.exec(argv, { timeoutMs: 3e4 });
    if (result.exitCode !== 0) {
      throw new Error(`docker create failed (exit ${result.exitCode}): ${result.stderr.trim()}`);
    }
    return result.stdout.trim();
  }
  /** Start a previously created container. */
  async startContainer(containerId) {
    const result = await this.executor.exec(["docker", "start", containerId], {
      timeoutMs: 3e4
    });
    if (result.exitCode !== 0) {
      throw new Error(`docker start failed (exit ${result.exitCode}): ${result.stderr.trim()}`);
    }
  }
  /**
   * Reset the container checkout to the specified target refs, if any.
   * This is used for SWE-bench images where the repo state must match the
   * dataset's base snapshot before grading begins.
   */
  async resetContainerCheckout(containerId, repoCheckouts) {
    if (!repoCheckouts || repoCheckouts.length === 0) {
      return;
    }
    for (const target of repoCheckouts) {
      const resetResult = await this.execInContainer({
        containerId,
        command: buildGitCommand(target, ["reset", "--hard", target.ref])
      });
      if (resetResult.exitCode !== 0) {
        throw new Error(
          `docker git reset failed (exit ${resetResult.exitCode}): ${resetResult.stderr.trim()}`
        );
      }
      const verifyResult = await this.execInContainer({
        containerId,
        command: buildGitCommand(target, ["rev-parse", "HEAD"]),
        timeoutMs: 3e4
      });
      if (verifyResult.exitCode !== 0) {
        throw new Error(
          `docker checkout verification failed (exit ${verifyResult.exitCode}): ${verifyResult.stderr.trim()}`
        );
      }
      const head = verifyResult.stdout.trim();
      if (head !== target.ref) {
        throw new Error(
          `docker checkout verification failed: expected ${target.ref} but found ${head || "<empty>"}`
        );
      }
    }
  }
  /** Copy a local file or directory into a running container. */
  async copyToContainer(containerId, localPath, containerPath) {
    const result = await this.executor.exec(
      ["docker", "cp", localPath, `${containerId}:${containerPath}`],
      { timeoutMs: 6e4 }
    );
    if (result.exitCode !== 0) {
      throw new Error(`docker cp failed (exit ${result.exitCode}): ${result.stderr.trim()}`);
    }
  }
  /**
   * Execute a command inside a running container.
   * If stdin is provided, it is piped via `docker exec -i`.
   */
  async execInContainer(options) {
    const { containerId, command, timeoutMs, stdin } = options;
    const argv = ["docker", "exec"];
    if (stdin !== void 0) {
      argv.push("-i");
    }
    argv.push(containerId, ...command);
    return this.executor.exec(argv, {
      timeoutMs: timeoutMs ?? this.timeoutMs,
      stdin
    });
  }
  /** Force-remove a container (always succeeds, even if container doesn't exist). */
  async removeContainer(containerId) {
    try {
      await this.executor.exec(["docker", "rm", "-f", containerId], {
        timeoutMs: 3e4
      });
    } catch {
    }
  }
  /** Full lifecycle: create → start → exec → cleanup. Convenience for single-command grading. */
  async runGraderInContainer(options) {
    const containerId = await this.createContainer();
    try {
      await this.startContainer(containerId);
      await this.resetContainerCheckout(containerId, options.repoCheckouts);
      if (options.copyFiles) {
        for (const file of options.copyFiles) {
          await this.copyToContainer(containerId, file.localPath, file.containerPath);
        }
      }
      return await this.execInContainer({
        containerId,
        command: options.command,
        stdin: options.stdin
      });
    } finally {
      await this.removeContainer(containerId);
    }
  }
};

export {
  DefaultCommandExecutor,
  DockerWorkspaceProvider
};
//# sourceMappingURL=chunk-PEUTJS7B.js.map