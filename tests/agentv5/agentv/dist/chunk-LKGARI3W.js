import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
import {
  writeArtifactsFromResults
} from "./chunk-RKE7SSET.js";
import {
  RunBudgetTracker,
  buildWipBranchName,
  confirmResultsMergeAndPull,
  deleteWipBranch,
  directPushResultsWithDetails,
  directorySizeBytes,
  getResultsRepoSyncStatus,
  listGitRunsCached,
  loadTsConfig,
  materializeGitRun,
  normalizeResultsConfig,
  pushWipCheckpoint,
  resolveResultsRepoRunsDir,
  setupWipWorktree,
  syncResultsRepoForProject
} from "./chunk-LXBI3SPX.js";
import {
  AGENTV_LOCAL_CONFIG_FILE_NAME,
  AGENTV_LOCAL_CONFIG_YML_FILE_NAME,
  CLI_PLACEHOLDERS,
  COMMON_TARGET_SETTINGS,
  DEFAULT_EVAL_PATTERNS,
  DEFAULT_THRESHOLD,
  KNOWN_PROVIDERS,
  ResponseCache,
  ResultRowSchemaError,
  aggregateRunDir,
  buildDirectoryChain,
  buildEvalTestTargetKey,
  buildEvaluationResultTargetKey,
  buildExperimentArtifactMetadata,
  buildSearchRoots,
  buildSearchRoots2,
  buildTestTargetKey,
  buildTraceFromMessages,
  deduplicateByTestIdTarget,
  deriveCategory,
  ensureVSCodeSubagents,
  findDeprecatedCamelCaseTargetWarnings,
  findGitRoot,
  fromTraceEnvelopeWire,
  getAgentvConfigDir,
  getLocalConfigPath,
  getProject,
  getProjectForPath,
  interpolateEnv,
  isAgentVConfigFileName,
  isGraderKind,
  isTypeScriptEvalConfigFileName,
  listTargetNames,
  loadCasesFromDirectory,
  loadCasesFromFile,
  loadConfig,
  loadPromptMdFallback,
  loadTestSuite,
  loadTestSuiteFromYamlObject,
  normalizeComposableConfigGraph,
  normalizeMetricsArtifactWire,
  normalizeResultRow,
  normalizeTargetDefinition,
  parseJsonlResults,
  parseYamlValue,
  readTargetDefinitions,
  readTestSuiteMetadata,
  resolveConfigFieldReferences,
  resolveEnvironmentRecipe,
  resolveFileReference,
  resolveResultsConfigForProject,
  resolveTargetDefinition,
  runEvaluation,
  serializeEvaluationResultWire,
  shouldEnableCache,
  shouldSkipCacheForTemperature,
  subscribeToCodexLogEntries,
  subscribeToCopilotCliLogEntries,
  subscribeToCopilotSdkLogEntries,
  subscribeToPiLogEntries,
  toCamelCaseDeep,
  toSnakeCaseDeep,
  traceEnvelopeToTraceSummary,
  traceEnvelopeToTranscriptMessages,
  typeScriptEvalConfigGlob,
  writeInitialRunSummaryArtifact
} from "./chunk-ELCJ23K4.js";

// src/commands/eval/shared.ts
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import path from "node:path";
import fg from "fast-glob";

// src/commands/read-adapters/agent-skills-evals.ts
import { readFileSync } from "node:fs";
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function isStringArray(value) {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}
function isAgentSkillsEvalsFormat(parsed) {
  return isRecord(parsed) && typeof parsed.skill_name === "string" && parsed.skill_name.trim().length > 0 && Array.isArray(parsed.evals);
}
function normalizedStringArray(value) {
  return isStringArray(value) ? value.map((item) => item.trim()).filter(Boolean) : [];
}
function parseAgentSkillsEvals(parsed, source) {
  if (!isAgentSkillsEvalsFormat(parsed)) {
    throw new Error(
      "Not a valid Agent Skills evals.json: expected top-level 'skill_name' string and 'evals' array"
    );
  }
  if (parsed.evals.length === 0) {
    throw new Error(`Invalid Agent Skills evals.json: 'evals' array is empty in '${source}'`);
  }
  const skillName = parsed.skill_name.trim();
  const tests = parsed.evals.map((rawCase, index) => {
    if (!isRecord(rawCase)) {
      throw new Error(`Invalid Agent Skills evals.json: evals[${index}] must be an object`);
    }
    if (typeof rawCase.prompt !== "string" || rawCase.prompt.trim() === "") {
      throw new Error(
        `Invalid Agent Skills evals.json: evals[${index}].prompt must be a non-empty string`
      );
    }
    const id = rawCase.id === void 0 ? String(index + 1) : String(rawCase.id);
    const expectedOutcome = typeof rawCase.expected_output === "string" && rawCase.expected_output.trim().length > 0 ? rawCase.expected_output.trim() : void 0;
    const assertions = normalizedStringArray(rawCase.assertions);
    const expectations = normalizedStringArray(rawCase.expectations);
    const files = normalizedStringArray(rawCase.files);
    const criteria = [];
    if (expectedOutcome) {
      criteria.push({
        id: "expected-outcome",
        outcome: expectedOutcome,
        required: true
      });
    }
    for (const [assertionIndex, assertion] of assertions.entries()) {
      criteria.push({
        id: `assertion-${assertionIndex + 1}`,
        outcome: assertion,
        required: true
      });
    }
    for (const [expectationIndex, expectation] of expectations.entries()) {
      criteria.push({
        id: `expectation-${expectationIndex + 1}`,
        outcome: expectation,
        required: true
      });
    }
    const metadata = {};
    if (typeof rawCase.name === "string" && rawCase.name.trim().length > 0) {
      metadata.agent_skills_name = rawCase.name.trim();
    }
    if (rawCase.id !== void 0) {
      metadata.agent_skills_id = rawCase.id;
    }
    if (files.length > 0) {
      metadata.agent_skills_files = files;
    }
    return {
      id,
      prompt: rawCase.prompt,
      ...expectedOutcome ? { expectedOutcome } : {},
      criteria,
      files,
      metadata
    };
  });
  return { skillName, tests };
}
function readAgentSkillsEvalsFile(filePath) {
  const content = readFileSync(filePath, "utf8");
  return parseAgentSkillsEvals(JSON.parse(content), filePath);
}
function isAgentSkillsEvalsJsonFile(filePath) {
  try {
    const content = readFileSync(filePath, "utf8");
    return isAgentSkillsEvalsFormat(JSON.parse(content));
  } catch {
    return false;
  }
}
function agentSkillsToAgentVYamlObject(suite) {
  return {
    description: `Evals for ${suite.skillName} skill`,
    tags: {
      skill: suite.skillName
    },
    metadata: {
      source_adapter: "agent-skills-evals-json"
    },
    tests: suite.tests.map((test) => ({
      id: test.id,
      ...test.expectedOutcome ? { criteria: test.expectedOutcome } : {},
      ...test.files.length > 0 ? { input_files: [...test.files] } : {},
      input: test.prompt,
      ...test.criteria.length > 0 ? {
        assert: [
          {
            metric: "agent-skills-criteria",
            type: "llm-rubric",
            value: test.criteria.map((criterion) => ({ ...criterion }))
          }
        ]
      } : {},
      ...Object.keys(test.metadata).length > 0 ? { metadata: test.metadata } : {}
    }))
  };
}

// src/commands/eval/shared.ts
function isNativeEvalFile(filePath) {
  return /\.(ya?ml|jsonl)$/i.test(filePath) || isTypeScriptEvalConfigFileName(filePath);
}
function shouldInspectJsonPath(filePath) {
  const base = path.basename(filePath).toLowerCase();
  return base === "evals.json" || base.endsWith(".evals.json");
}
function jsonEvalPathError(pattern) {
  return new Error(
    `Unsupported .json eval file: ${pattern}. Agent Skills evals.json read adapters require top-level 'skill_name' and 'evals'. Use YAML, JSONL, TypeScript, or run 'agentv convert ${pattern} --out EVAL.yaml'.`
  );
}
async function resolveEvalPaths(evalPaths, cwd, options = {}) {
  const normalizedInputs = evalPaths.map((value) => value?.trim()).filter((value) => value);
  if (normalizedInputs.length === 0) {
    throw new Error("No eval paths provided.");
  }
  const includePatterns = [];
  const ignorePatterns = [];
  for (const input of normalizedInputs) {
    if (input.startsWith("!")) {
      ignorePatterns.push(input.slice(1));
    } else {
      includePatterns.push(input);
    }
  }
  if (includePatterns.length === 0) {
    throw new Error("No eval paths provided (only negation patterns found).");
  }
  const results = /* @__PURE__ */ new Set();
  for (const pattern of includePatterns) {
    const candidatePath = path.isAbsolute(pattern) ? path.normalize(pattern) : path.resolve(cwd, pattern);
    let candidateStats;
    try {
      candidateStats = await stat(candidatePath);
    } catch {
      candidateStats = void 0;
    }
    if (candidateStats) {
      if (candidateStats.isFile() && path.extname(candidatePath).toLowerCase() === ".json") {
        if (options.allowReadAdapters && isAgentSkillsEvalsJsonFile(candidatePath)) {
          results.add(candidatePath);
          continue;
        }
        throw jsonEvalPathError(pattern);
      }
      if (candidateStats.isFile() && isNativeEvalFile(candidatePath)) {
        results.add(candidatePath);
        continue;
      }
      if (candidateStats.isDirectory()) {
        const filePattern = options.allowReadAdapters ? `{suite.yaml,suite.yml,*.eval.yaml,*.eval.yml,eval.yaml,eval.yml,${typeScriptEvalConfigGlob()},evals.json,*.evals.json}` : `{suite.yaml,suite.yml,*.eval.yaml,*.eval.yml,eval.yaml,eval.yml,${typeScriptEvalConfigGlob()}}`;
        const dirGlob = path.posix.join(candidatePath.replace(/\\/g, "/"), `**/${filePattern}`);
        const dirMatches = await fg(dirGlob, {
          absolute: true,
          onlyFiles: true,
          unique: true,
          dot: true,
          followSymbolicLinks: true,
          ignore: ignorePatterns
        });
        for (const filePath of dirMatches) {
          results.add(path.normalize(filePath));
        }
        continue;
      }
    }
    const globPattern = pattern.includes("\\") ? pattern.replace(/\\/g, "/") : pattern;
    const matches = await fg(globPattern, {
      cwd,
      absolute: true,
      onlyFiles: true,
      unique: true,
      dot: true,
      followSymbolicLinks: true,
      ignore: ignorePatterns
    });
    const supportedMatches = matches.filter((filePath) => {
      if (isNativeEvalFile(filePath)) {
        return true;
      }
      return options.allowReadAdapters && path.extname(filePath).toLowerCase() === ".json" && shouldInspectJsonPath(filePath) && isAgentSkillsEvalsJsonFile(filePath);
    });
    for (const filePath of supportedMatches) {
      results.add(path.normalize(filePath));
    }
  }
  if (ignorePatterns.length > 0 && results.size > 0) {
    const ignoredMatches = await fg(ignorePatterns, {
      cwd,
      absolute: true,
      onlyFiles: true,
      unique: true,
      dot: true,
      followSymbolicLinks: true
    });
    for (const filePath of ignoredMatches) {
      results.delete(path.normalize(filePath));
    }
  }
  if (results.size === 0) {
    throw new Error(
      `No eval files matched any provided paths or globs: ${includePatterns.join(
        ", "
      )}. Provide YAML, JSONL, TypeScript, or supported read-adapter paths/globs (e.g., "evals/**/suite.yaml", "evals/**/*.eval.ts", "skills/**/evals.json").`
    );
  }
  const sorted = Array.from(results);
  sorted.sort();
  return sorted;
}
async function findRepoRoot(start) {
  const fallback = path.resolve(start);
  let current = fallback;
  while (current !== void 0) {
    const candidate = path.join(current, ".git");
    try {
      await access(candidate, constants.F_OK);
      return current;
    } catch {
      const parent = path.dirname(current);
      if (parent === current) {
        break;
      }
      current = parent;
    }
  }
  return fallback;
}

// package.json
var package_default = {
  name: "agentv",
  version: "5.3.1-next.1",
  description: "CLI entry point for AgentV",
  type: "module",
  repository: {
    type: "git",
    url: "https://github.com/EntityProcess/agentv.git"
  },
  homepage: "https://agentv.dev",
  bugs: {
    url: "https://github.com/EntityProcess/agentv/issues"
  },
  bin: {
    agentv: "./dist/cli.js"
  },
  files: ["dist", "README.md"],
  scripts: {
    dev: "bun src/cli.ts",
    build: "(cd ../../packages/sdk && bun run build) && tsup && bun run copy-readme",
    "copy-readme": `bun -e "import { cpSync } from 'fs'; cpSync('../../README.md', 'README.md')"`,
    prepublishOnly: `node -e "if(process.env.ALLOW_PUBLISH!=='1'){console.error('ERROR: Use bun run publish:next, then bun run promote:latest');process.exit(1)}"`,
    typecheck: "(cd ../../packages/sdk && bun run build) && tsc --noEmit",
    lint: "biome check .",
    format: "biome format --write .",
    fix: "biome check --write .",
    test: "(cd ../../packages/sdk && bun run build) && bun test",
    "test:watch": "bun test --watch"
  },
  dependencies: {
    "@hono/node-server": "^1.19.11",
    "@inquirer/prompts": "^8.2.1",
    "@earendil-works/pi-ai": "^0.74.0",
    "cmd-ts": "^0.14.3",
    dotenv: "^16.4.5",
    "fast-glob": "^3.3.3",
    hono: "^4.12.9",
    json5: "^2.2.3",
    micromatch: "^4.0.8",
    semver: "^7.7.4",
    yaml: "^2.8.3"
  },
  peerDependencies: {
    "@anthropic-ai/claude-agent-sdk": "^0.2.89",
    "@github/copilot-sdk": "^1.0.3",
    "@openai/codex-sdk": "^0.136.0",
    "@earendil-works/pi-coding-agent": "^0.74.0"
  },
  peerDependenciesMeta: {
    "@anthropic-ai/claude-agent-sdk": {
      optional: true
    },
    "@github/copilot-sdk": {
      optional: true
    },
    "@openai/codex-sdk": {
      optional: true
    },
    "@earendil-works/pi-coding-agent": {
      optional: true
    }
  },
  optionalDependencies: {
    "@anthropic-ai/claude-agent-sdk": "^0.2.89",
    "@github/copilot-sdk": "^1.0.3",
    "@openai/codex-sdk": "^0.136.0",
    "@earendil-works/pi-coding-agent": "^0.74.0"
  },
  devDependencies: {
    "@agentv/core": "workspace:*",
    "@agentv/sdk": "workspace:*",
    "@types/semver": "^7.7.1",
    execa: "^9.3.0"
  }
};

// src/commands/eval/result-layout.ts
import { existsSync, readdirSync, statSync } from "node:fs";
import path2 from "node:path";
var RESULT_INDEX_FILENAME = "index.jsonl";
var RUN_INTERNAL_DIRNAME = ".internal";
var RESULTS_DIRNAME = "results";
var DEFAULT_EXPERIMENT_NAME = "default";
var RESERVED_RESULTS_NAMESPACES = /* @__PURE__ */ new Set(["export", "metadata", "runs"]);
function isReservedResultsNamespace(value) {
  return value !== void 0 && (value.startsWith(".") || RESERVED_RESULTS_NAMESPACES.has(value));
}
function normalizeExperimentName(experiment) {
  const trimmed = experiment?.trim();
  if (!trimmed) {
    return DEFAULT_EXPERIMENT_NAME;
  }
  if (!/^[A-Za-z0-9._-]+$/.test(trimmed)) {
    throw new Error(
      `Invalid experiment name "${trimmed}". Use only letters, numbers, ".", "_" and "-".`
    );
  }
  if (isReservedResultsNamespace(trimmed)) {
    throw new Error(`Invalid experiment name "${trimmed}". This results namespace is reserved.`);
  }
  return trimmed;
}
function createRunDirName(timestamp = /* @__PURE__ */ new Date()) {
  return timestamp.toISOString().replace(/[:.]/g, "-");
}
function defaultRunPathSegments(experiment, runDirName) {
  if (experiment !== void 0) {
    normalizeExperimentName(experiment);
  }
  return [runDirName];
}
function buildResultsRootDir(cwd) {
  return path2.join(cwd, ".agentv", RESULTS_DIRNAME);
}
function buildDefaultRunDirFromName(cwd, experiment, runDirName) {
  return path2.join(buildResultsRootDir(cwd), ...defaultRunPathSegments(experiment, runDirName));
}
function buildDefaultRunDir(cwd, experiment, timestamp = /* @__PURE__ */ new Date()) {
  return buildDefaultRunDirFromName(cwd, experiment, createRunDirName(timestamp));
}
function resolveRunIndexPath(runDir) {
  return path2.join(runDir, RUN_INTERNAL_DIRNAME, RESULT_INDEX_FILENAME);
}
function isRunManifestPath(filePath) {
  return path2.basename(filePath) === RESULT_INDEX_FILENAME;
}
function resolveExistingRunPrimaryPath(runDir) {
  const indexPath = resolveRunIndexPath(runDir);
  if (existsSync(indexPath)) {
    return indexPath;
  }
  const legacyIndexPath = path2.join(runDir, RESULT_INDEX_FILENAME);
  if (existsSync(legacyIndexPath)) {
    return legacyIndexPath;
  }
  return void 0;
}
function discoverRunManifestPaths(runDir) {
  const direct = resolveExistingRunPrimaryPath(runDir);
  if (direct) {
    return [direct];
  }
  const manifests = [];
  function walk(currentDir) {
    const primary = resolveExistingRunPrimaryPath(currentDir);
    if (primary) {
      manifests.push(primary);
      return;
    }
    let entries;
    try {
      entries = readdirSync(currentDir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) {
        walk(path2.join(currentDir, entry.name));
      }
    }
  }
  walk(runDir);
  return manifests.sort();
}
function isDirectoryPath(filePath) {
  try {
    return statSync(filePath).isDirectory();
  } catch {
    return false;
  }
}
function resolveWorkspaceOrFilePath(filePath) {
  if (!isDirectoryPath(filePath)) {
    return filePath;
  }
  const existing = resolveExistingRunPrimaryPath(filePath);
  if (existing) {
    return existing;
  }
  const nested = discoverRunManifestPaths(filePath);
  if (nested.length === 1) {
    return nested[0];
  }
  if (nested.length > 1) {
    throw new Error(
      `Result workspace contains multiple run manifests; pass one bundle directory or manifest: ${filePath}`
    );
  }
  throw new Error(`Result workspace is missing ${RESULT_INDEX_FILENAME}: ${filePath}`);
}
function resolveRunManifestPath(filePath) {
  if (isDirectoryPath(filePath)) {
    return resolveWorkspaceOrFilePath(filePath);
  }
  if (!isRunManifestPath(filePath)) {
    throw new Error(
      `Expected a run workspace directory or ${RESULT_INDEX_FILENAME} manifest: ${filePath}`
    );
  }
  return filePath;
}
function relativeRunPathFromCwd(cwd, runDir) {
  const relative = path2.relative(path2.resolve(buildResultsRootDir(cwd)), path2.resolve(runDir));
  if (!relative || relative.startsWith("..") || path2.isAbsolute(relative)) {
    return void 0;
  }
  const parts = relative.split(path2.sep).filter(Boolean);
  if (parts.length !== 1 || isReservedResultsNamespace(parts[0])) {
    return void 0;
  }
  return parts.join(path2.posix.sep);
}

// src/utils/targets.ts
import { constants as constants2 } from "node:fs";
import { access as access2 } from "node:fs/promises";
import path3 from "node:path";
var TARGET_FILE_CANDIDATES = [
  "targets.yaml",
  "targets.yml",
  path3.join(".agentv", "targets.yaml"),
  path3.join(".agentv", "targets.yml")
];
async function fileExists(filePath) {
  try {
    await access2(filePath, constants2.F_OK);
    return true;
  } catch {
    return false;
  }
}
async function discoverTargetsFile(options) {
  const { explicitPath, testFilePath, repoRoot, cwd } = options;
  if (explicitPath) {
    const resolvedExplicit = path3.resolve(explicitPath);
    if (await fileExists(resolvedExplicit)) {
      return resolvedExplicit;
    }
    for (const candidate of TARGET_FILE_CANDIDATES) {
      const nested = path3.join(resolvedExplicit, candidate);
      if (await fileExists(nested)) {
        return nested;
      }
    }
    throw new Error(`targets.yaml not found at provided path: ${resolvedExplicit}`);
  }
  const directories = [...buildDirectoryChain(testFilePath, repoRoot)];
  const resolvedCwd = path3.resolve(cwd);
  if (!directories.includes(resolvedCwd)) {
    directories.push(resolvedCwd);
  }
  for (const directory of directories) {
    for (const candidate of TARGET_FILE_CANDIDATES) {
      const fullPath = path3.join(directory, candidate);
      if (await fileExists(fullPath)) {
        return fullPath;
      }
    }
  }
  throw new Error("Unable to locate targets.yaml. Use --targets to specify the file explicitly.");
}

// src/commands/eval/discover.ts
import path4 from "node:path";
import fg2 from "fast-glob";
async function discoverEvalFiles(cwd) {
  const repoRoot = await findRepoRoot(cwd);
  const config = await loadConfig(path4.join(cwd, "_"), repoRoot);
  const patterns = config?.eval_patterns && config.eval_patterns.length > 0 ? config.eval_patterns : DEFAULT_EVAL_PATTERNS;
  const ignore = ["**/node_modules/**", "**/dist/**"];
  const matches = await fg2(patterns, {
    cwd,
    absolute: true,
    onlyFiles: true,
    ignore,
    followSymbolicLinks: true,
    caseSensitiveMatch: false
  });
  const evalFiles = matches.map((absPath) => {
    const relativePath = path4.relative(cwd, absPath);
    const category = deriveCategory(relativePath);
    return { path: absPath, relativePath, category };
  });
  evalFiles.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
  return evalFiles;
}
function getCategories(files) {
  const categories = /* @__PURE__ */ new Set();
  for (const file of files) {
    categories.add(file.category);
  }
  const sorted = Array.from(categories);
  sorted.sort();
  return sorted;
}
function filterByCategory(files, category) {
  return files.filter((f) => f.category === category);
}

// src/commands/eval/run-eval.ts
import { constants as constants4, existsSync as existsSync5, mkdirSync } from "node:fs";
import { access as access5, readFile as readFile8 } from "node:fs/promises";
import { createRequire as createNodeRequire } from "node:module";
import path12 from "node:path";
import { pathToFileURL } from "node:url";

// ../../node_modules/.bun/yocto-queue@1.2.2/node_modules/yocto-queue/index.js
var Node = class {
  value;
  next;
  constructor(value) {
    this.value = value;
  }
};
var Queue = class {
  #head;
  #tail;
  #size;
  constructor() {
    this.clear();
  }
  enqueue(value) {
    const node = new Node(value);
    if (this.#head) {
      this.#tail.next = node;
      this.#tail = node;
    } else {
      this.#head = node;
      this.#tail = node;
    }
    this.#size++;
  }
  dequeue() {
    const current = this.#head;
    if (!current) {
      return;
    }
    this.#head = this.#head.next;
    this.#size--;
    if (!this.#head) {
      this.#tail = void 0;
    }
    return current.value;
  }
  peek() {
    if (!this.#head) {
      return;
    }
    return this.#head.value;
  }
  clear() {
    this.#head = void 0;
    this.#tail = void 0;
    this.#size = 0;
  }
  get size() {
    return this.#size;
  }
  *[Symbol.iterator]() {
    let current = this.#head;
    while (current) {
      yield current.value;
      current = current.next;
    }
  }
  *drain() {
    while (this.#head) {
      yield this.dequeue();
    }
  }
};

// ../../node_modules/.bun/p-limit@6.2.0/node_modules/p-limit/index.js
function pLimit(concurrency) {
  validateConcurrency(concurrency);
  const queue = new Queue();
  let activeCount = 0;
  const resumeNext = () => {
    if (activeCount < concurrency && queue.size > 0) {
      queue.dequeue()();
      activeCount++;
    }
  };
  const next = () => {
    activeCount--;
    resumeNext();
  };
  const run = async (function_, resolve, arguments_) => {
    const result = (async () => function_(...arguments_))();
    resolve(result);
    try {
      await result;
    } catch {
    }
    next();
  };
  const enqueue = (function_, resolve, arguments_) => {
    new Promise((internalResolve) => {
      queue.enqueue(internalResolve);
    }).then(
      run.bind(void 0, function_, resolve, arguments_)
    );
    (async () => {
      await Promise.resolve();
      if (activeCount < concurrency) {
        resumeNext();
      }
    })();
  };
  const generator = (function_, ...arguments_) => new Promise((resolve) => {
    enqueue(function_, resolve, arguments_);
  });
  Object.defineProperties(generator, {
    activeCount: {
      get: () => activeCount
    },
    pendingCount: {
      get: () => queue.size
    },
    clearQueue: {
      value() {
        queue.clear();
      }
    },
    concurrency: {
      get: () => concurrency,
      set(newConcurrency) {
        validateConcurrency(newConcurrency);
        concurrency = newConcurrency;
        queueMicrotask(() => {
          while (activeCount < concurrency && queue.size > 0) {
            resumeNext();
          }
        });
      }
    }
  });
  return generator;
}
function validateConcurrency(concurrency) {
  if (!((Number.isInteger(concurrency) || concurrency === Number.POSITIVE_INFINITY) && concurrency > 0)) {
    throw new TypeError("Expected `concurrency` to be a number from 1 and up");
  }
}

// src/version-check.ts
import { coerce, satisfies, validRange } from "semver";
var ANSI_YELLOW = "\x1B[33m";
var ANSI_RED = "\x1B[31m";
var ANSI_RESET = "\x1B[0m";
function checkVersion(requiredVersion) {
  const currentVersion = package_default.version;
  if (!requiredVersion.trim() || !validRange(requiredVersion)) {
    throw new Error(
      `Invalid required_version "${requiredVersion}" in .agentv/config.yaml. Must be a valid semver range (e.g., ">=2.11.0", "^2.11.0").`
    );
  }
  return {
    satisfied: satisfies(coerce(currentVersion) ?? currentVersion, requiredVersion),
    currentVersion,
    requiredRange: requiredVersion
  };
}
function formatVersionMismatch(result) {
  return `agentv ${result.currentVersion} does not satisfy this project's required_version ${result.requiredRange}`;
}
function formatRequiredVersionWarning(result) {
  return `${ANSI_YELLOW}Warning: ${formatVersionMismatch(result)}. Run \`agentv self update\`.${ANSI_RESET}`;
}
function formatRequiredVersionFailureNote(result) {
  return `note: ${formatVersionMismatch(result)} - this may be the cause. Run \`agentv self update\`.`;
}
function enforceRequiredVersion(requiredVersion, options) {
  let result;
  try {
    result = checkVersion(requiredVersion);
  } catch (err) {
    console.error(`${ANSI_RED}Error: ${err.message}${ANSI_RESET}`);
    process.exit(1);
  }
  if (result.satisfied) {
    return result;
  }
  const warning = formatRequiredVersionWarning(result);
  if (options?.strict) {
    console.error(warning);
    console.error(
      `${ANSI_RED}Aborting: --strict mode requires the installed version to satisfy the required range.${ANSI_RESET}`
    );
    process.exit(1);
  }
  process.stderr.write(`${warning}
`);
  return result;
}

// src/commands/results/remote.ts
import { existsSync as existsSync3 } from "node:fs";
import path7 from "node:path";

// src/commands/inspect/utils.ts
import { readFileSync as readFileSync3, readdirSync as readdirSync2, statSync as statSync2 } from "node:fs";
import path6 from "node:path";

// src/commands/results/manifest.ts
import { existsSync as existsSync2, readFileSync as readFileSync2 } from "node:fs";
import path5 from "node:path";
function manifestBaseDir(indexPath) {
  const dir = path5.dirname(indexPath);
  return path5.basename(dir) === ".internal" ? path5.dirname(dir) : dir;
}
function mapGradingAssertions(value) {
  if (!Array.isArray(value)) {
    return void 0;
  }
  return value.map((assertion) => {
    const record = assertion;
    return {
      text: String(record.text ?? ""),
      passed: Boolean(record.passed),
      evidence: typeof record.evidence === "string" ? record.evidence : void 0
    };
  });
}
function readGradingAssertionResults(record) {
  return mapGradingAssertions(
    Array.isArray(record.assertion_results) ? record.assertion_results : record.assertions
  );
}
function readNestedGradingScores(record) {
  if (Array.isArray(record.component_results)) {
    return record.component_results;
  }
  if (Array.isArray(record.scores)) {
    return record.scores;
  }
  if (Array.isArray(record.graders)) {
    return record.graders;
  }
  if (Array.isArray(record.evaluators)) {
    return record.evaluators;
  }
  return void 0;
}
function componentLabel(component) {
  const assertion = component.assertion;
  if (assertion && typeof assertion === "object" && !Array.isArray(assertion)) {
    const record = assertion;
    for (const key of ["value", "name", "id", "type"]) {
      const value = record[key];
      if (typeof value === "string" && value.trim().length > 0) {
        return value;
      }
    }
  }
  return typeof component.reason === "string" ? component.reason : "grading component";
}
function mapComponentAssertion(component) {
  return {
    text: componentLabel(component),
    passed: component.pass === true,
    evidence: typeof component.reason === "string" ? component.reason : void 0
  };
}
function collectComponentAssertions(value) {
  if (!Array.isArray(value)) {
    return [];
  }
  return value.flatMap((component) => {
    if (!component || typeof component !== "object" || Array.isArray(component)) {
      return [];
    }
    const record = component;
    const nested = collectComponentAssertions(record.component_results);
    return nested.length > 0 ? nested : [mapComponentAssertion(record)];
  });
}
function mapGradingEvaluator(evaluator) {
  const pass = typeof evaluator.pass === "boolean" ? evaluator.pass : evaluator.verdict === "pass" || typeof evaluator.score === "number" && evaluator.score >= 0.8;
  const verdict = pass ? "pass" : "fail";
  const details = evaluator.details && typeof evaluator.details === "object" && !Array.isArray(evaluator.details) ? evaluator.details : void 0;
  const assertion = evaluator.assertion && typeof evaluator.assertion === "object" && !Array.isArray(evaluator.assertion) ? evaluator.assertion : void 0;
  return {
    name: String(assertion?.name ?? assertion?.id ?? evaluator.name ?? componentLabel(evaluator)),
    type: String(assertion?.type ?? evaluator.type ?? "llm-grader"),
    score: typeof evaluator.score === "number" ? evaluator.score : 0,
    reason: typeof evaluator.reason === "string" ? evaluator.reason : void 0,
    assertions: (() => {
      const nestedAssertions = collectComponentAssertions(evaluator.component_results);
      if (nestedAssertions.length > 0) {
        return nestedAssertions;
      }
      return readGradingAssertionResults(evaluator) ?? [mapComponentAssertion(evaluator)];
    })(),
    scores: mapGradingEvaluators(readNestedGradingScores(evaluator)),
    weight: typeof evaluator.weight === "number" ? evaluator.weight : void 0,
    verdict,
    details
  };
}
function mapGradingEvaluators(value) {
  if (!Array.isArray(value)) {
    return void 0;
  }
  return value.map((evaluator) => mapGradingEvaluator(evaluator));
}
function parseResultRows(content, sourceLabel) {
  return content.split(/\r?\n/).map((line, index) => ({ line: line.trim(), lineNumber: index + 1 })).filter(({ line }) => line.length > 0).map(
    ({ line, lineNumber }) => normalizeResultRow(JSON.parse(line), {
      lineNumber,
      sourceLabel
    })
  );
}
function parseMarkdownMessages(content) {
  const trimmed = content.trim();
  if (!trimmed.startsWith("@[")) {
    return [];
  }
  const matches = [...trimmed.matchAll(/^@\[(.+?)\]:\n([\s\S]*?)(?=^@\[(.+?)\]:\n|\s*$)/gm)];
  return matches.map((match) => ({
    role: match[1],
    content: match[2].trimEnd()
  }));
}
function readOptionalText(baseDir, relativePath) {
  if (!relativePath) {
    return void 0;
  }
  const absolutePath = path5.join(baseDir, relativePath);
  if (!existsSync2(absolutePath)) {
    return void 0;
  }
  return readFileSync2(absolutePath, "utf8");
}
function readOptionalJson(baseDir, relativePath) {
  const text = readOptionalText(baseDir, relativePath);
  if (!text) {
    return void 0;
  }
  try {
    return JSON.parse(text);
  } catch {
    return void 0;
  }
}
function hydrateInput(baseDir, record) {
  const inputText = readOptionalText(baseDir, record.input_path);
  if (!inputText) {
    return void 0;
  }
  const messages = parseMarkdownMessages(inputText);
  return messages.length > 0 ? messages : [{ role: "user", content: inputText.trimEnd() }];
}
function hydrateOutput(baseDir, record) {
  const responseText = readOptionalText(
    baseDir,
    record.output_path ?? record.answer_path ?? record.response_path
  );
  if (!responseText) {
    return void 0;
  }
  return responseText.trimEnd();
}
function hydrateTraceEnvelope(baseDir, record) {
  const traceWire = readOptionalJson(baseDir, record.trace_path);
  if (!traceWire) {
    return void 0;
  }
  try {
    const envelope = fromTraceEnvelopeWire(traceWire);
    const summary = traceEnvelopeToTraceSummary(envelope);
    return buildTraceFromMessages({
      output: traceEnvelopeToTranscriptMessages(envelope),
      summary: summary.trace,
      finalOutput: hydrateOutput(baseDir, record),
      tokenUsage: summary.tokenUsage,
      costUsd: summary.costUsd,
      durationMs: summary.durationMs,
      startTime: summary.startTime,
      endTime: summary.endTime,
      provider: envelope.source.provider,
      target: record.target ?? envelope.eval.target,
      testId: record.test_id ?? envelope.eval.testId,
      conversationId: envelope.eval.runId
    });
  } catch {
    return void 0;
  }
}
function hydrateTrace(baseDir, record, options) {
  if (options.hydrateTranscriptTrace !== false) {
    const trace = hydrateTraceEnvelope(baseDir, record);
    if (trace) {
      return trace;
    }
  }
  const output = hydrateOutput(baseDir, record) ?? "";
  return buildTraceFromMessages({
    input: hydrateInput(baseDir, record),
    output: output ? [{ role: "assistant", content: output }] : [],
    summary: record.trace ? toCamelCaseDeep(record.trace) : void 0,
    finalOutput: output,
    target: record.target,
    testId: record.test_id
  });
}
function hydrateManifestRecord(baseDir, record, options) {
  const grading = readOptionalJson(baseDir, record.grading_path);
  const metrics = normalizeMetricsArtifactWire(
    readOptionalJson(baseDir, record.metrics_path)
  );
  const timing = metrics ?? readOptionalJson(baseDir, record.timing_path);
  const testId = record.test_id ?? "unknown";
  const gradingAssertions = grading ? collectComponentAssertions(grading.component_results) : void 0;
  const gradingRecord = grading;
  const gradingScores = mapGradingEvaluators(
    gradingRecord?.component_results ?? gradingRecord?.graders ?? gradingRecord?.evaluators
  );
  return {
    timestamp: record.timestamp,
    testId,
    suite: record.suite,
    category: record.category,
    target: record.target,
    variant: record.variant,
    score: record.score,
    executionStatus: record.execution_status,
    error: record.error,
    assertions: gradingAssertions?.map((assertion) => ({
      text: assertion.text,
      passed: assertion.passed,
      evidence: assertion.evidence
    })),
    scores: (
      // `evaluators` was renamed to `graders` in v4.13 — read both for backwards compat with old artifacts.
      // TODO: remove `evaluators` fallback once old run directories are no longer in use.
      gradingScores ?? record.scores
    ),
    tokenUsage: metrics?.tokens ? {
      input: metrics.tokens.input,
      output: metrics.tokens.output,
      reasoning: metrics.tokens.reasoning
    } : timing?.token_usage ? {
      input: timing.token_usage?.input,
      output: timing.token_usage?.output,
      reasoning: timing.token_usage?.reasoning
    } : record.token_usage,
    durationMs: metrics?.duration?.total_ms ?? timing?.duration_ms ?? record.duration_ms,
    costUsd: metrics?.cost?.usd ?? record.cost_usd,
    input: hydrateInput(baseDir, record),
    output: hydrateOutput(baseDir, record) ?? "",
    trace: hydrateTrace(baseDir, record, options),
    metadata: record.metadata
  };
}
function parseResultManifest(content) {
  return parseResultRows(content);
}
function resolveResultSourcePath(source, cwd) {
  const resolved = path5.isAbsolute(source) ? source : path5.resolve(cwd ?? process.cwd(), source);
  if (isDirectoryPath(resolved) || isRunManifestPath(resolved)) {
    return resolveRunManifestPath(resolved);
  }
  return resolved;
}
function loadManifestResults(sourceFile, options = {}) {
  const resolvedSourceFile = resolveRunManifestPath(sourceFile);
  const content = readFileSync2(resolvedSourceFile, "utf8");
  const records = parseResultRows(content, resolvedSourceFile);
  const baseDir = manifestBaseDir(resolvedSourceFile);
  return records.map((record) => hydrateManifestRecord(baseDir, record, options));
}
function normalizeTagMap(value) {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return void 0;
  }
  const entries = [];
  for (const [key, raw] of Object.entries(value)) {
    if (typeof raw === "string") {
      entries.push([key, raw]);
    }
  }
  return entries.length > 0 ? Object.fromEntries(entries) : void 0;
}
function loadLightweightResults(sourceFile) {
  const resolvedSourceFile = resolveRunManifestPath(sourceFile);
  const content = readFileSync2(resolvedSourceFile, "utf8");
  return parseResultManifest(content).map((record) => ({
    testId: record.test_id ?? "unknown",
    evalPath: record.eval_path,
    suite: record.suite,
    category: record.category,
    target: record.target,
    variant: record.variant,
    experiment: record.experiment,
    tags: normalizeTagMap(record.tags),
    score: record.score,
    scores: record.scores,
    executionStatus: record.execution_status,
    error: record.error,
    costUsd: record.cost_usd,
    timestamp: record.timestamp,
    runtimeSource: record.runtime_source
  }));
}

// src/commands/inspect/utils.ts
var colors = {
  reset: "\x1B[0m",
  bold: "\x1B[1m",
  dim: "\x1B[2m",
  green: "\x1B[32m",
  red: "\x1B[31m",
  yellow: "\x1B[33m",
  cyan: "\x1B[36m",
  gray: "\x1B[90m"
};
var noColor = process.env.NO_COLOR !== void 0 || !process.stdout.isTTY;
var c = noColor ? Object.fromEntries(Object.keys(colors).map((k) => [k, ""])) : colors;
var ansiPattern = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
function stripAnsi(str) {
  return str.replace(ansiPattern, "");
}
function padRight(str, len) {
  const plainLen = stripAnsi(str).length;
  return str + " ".repeat(Math.max(0, len - plainLen));
}
function padLeft(str, len) {
  const plainLen = stripAnsi(str).length;
  return " ".repeat(Math.max(0, len - plainLen)) + str;
}
function loadResultFile(filePath) {
  const resolvedFilePath = resolveTraceResultPath(filePath);
  if (path6.extname(resolvedFilePath) === ".json") {
    return loadOtlpTraceFile(resolvedFilePath);
  }
  if (isRunManifestPath(resolvedFilePath)) {
    return loadManifestAsRawResults(resolvedFilePath);
  }
  return loadJsonlRecords(resolvedFilePath);
}
function resolveTraceResultPath(filePath) {
  return resolveWorkspaceOrFilePath(filePath);
}
function isRecord2(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function shouldUseTraceScoreError(value) {
  if (!isRecord2(value)) {
    return false;
  }
  return typeof value.test_id === "string" || typeof value.testId === "string" || Object.hasOwn(value, "score") || Object.hasOwn(value, "trace") || Object.hasOwn(value, "spans");
}
function loadJsonlRecords(filePath) {
  const content = readFileSync3(filePath, "utf8");
  const lines = content.trim().split("\n").filter((line) => line.trim());
  return lines.map((line, i) => {
    const parsed = JSON.parse(line);
    try {
      return normalizeResultRow(parsed, {
        lineNumber: i + 1,
        sourceLabel: filePath
      });
    } catch (error) {
      if (error instanceof ResultRowSchemaError && shouldUseTraceScoreError(parsed)) {
        throw new Error(
          `Missing or invalid score in result at line ${i + 1}: ${line.slice(0, 100)}`
        );
      }
      throw error;
    }
  });
}
function loadManifestAsRawResults(filePath) {
  return loadManifestResults(filePath).map(toRawResult);
}
function toRawResult(result) {
  return {
    timestamp: result.timestamp,
    test_id: result.testId,
    suite: result.suite,
    conversation_id: result.conversationId,
    score: result.score,
    assertions: result.assertions?.map((assertion) => ({
      text: assertion.text,
      passed: assertion.passed,
      evidence: assertion.evidence
    })),
    target: result.target,
    error: result.error,
    scores: result.scores?.map((score) => ({
      name: score.name,
      type: score.type,
      score: score.score,
      assertions: score.assertions?.map((assertion) => ({
        text: assertion.text,
        passed: assertion.passed,
        evidence: assertion.evidence
      })),
      weight: score.weight
    })),
    token_usage: result.tokenUsage ? {
      input: result.tokenUsage.input,
      output: result.tokenUsage.output,
      cached: result.tokenUsage.cached
    } : void 0,
    cost_usd: result.costUsd,
    duration_ms: result.durationMs,
    start_time: result.startTime,
    end_time: result.endTime,
    input: result.input,
    output: result.output,
    trace: toSnakeCaseDeep(result.trace),
    file_changes: result.fileChanges
  };
}
function loadOtlpTraceFile(filePath) {
  const parsed = JSON.parse(readFileSync3(filePath, "utf8"));
  const spans = parsed.resourceSpans?.flatMap((resource) => resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []);
  if (!spans || spans.length === 0) {
    return [];
  }
  const spanMap = /* @__PURE__ */ new Map();
  const childMap = /* @__PURE__ */ new Map();
  for (const span of spans) {
    if (!span.spanId) continue;
    spanMap.set(span.spanId, span);
    if (span.parentSpanId) {
      const siblings = childMap.get(span.parentSpanId) ?? [];
      siblings.push(span);
      childMap.set(span.parentSpanId, siblings);
    }
  }
  const roots = spans.filter((span) => !span.parentSpanId || !spanMap.has(span.parentSpanId));
  const supportedRoots = roots.filter(isAgentvEvalRoot);
  const candidateRoots = supportedRoots.length > 0 ? supportedRoots : roots;
  return candidateRoots.map((root, index) => {
    const descendants = collectChildSpans(root.spanId, childMap);
    const rootAttrs = parseOtlpAttributes(root.attributes);
    const parsedDescendants = descendants.map((span) => ({
      ...span,
      parsedAttributes: parseOtlpAttributes(span.attributes)
    }));
    const toolSpans = parsedDescendants.filter(
      (span) => typeof span.parsedAttributes.gen_ai_tool_name === "string"
    );
    const llmSpans = parsedDescendants.filter(
      (span) => span.parsedAttributes.gen_ai_operation_name === "chat" || typeof span.name === "string" && span.name.startsWith("chat ")
    );
    const tokenUsage = descendants.reduce(
      (acc, span) => {
        const attrs = parseOtlpAttributes(span.attributes);
        acc.input += numberAttr(attrs.gen_ai_usage_input_tokens) ?? 0;
        acc.output += numberAttr(attrs.gen_ai_usage_output_tokens) ?? 0;
        const cached = numberAttr(attrs.gen_ai_usage_cache_read_input_tokens);
        if (cached !== void 0 && cached > 0) {
          acc.cached = (acc.cached ?? 0) + cached;
        }
        return acc;
      },
      { input: 0, output: 0, cached: void 0 }
    );
    const traceSummary = buildDerivedTraceSummary({
      trace: {
        event_count: numberAttr(rootAttrs.agentv_trace_event_count) ?? (toolSpans.length > 0 ? toolSpans.length : void 0),
        tool_calls: countRawSpanNames(
          toolSpans.map((span) => ({
            type: "tool",
            name: String(span.parsedAttributes.gen_ai_tool_name)
          }))
        ),
        error_count: descendants.filter((span) => span.status?.code === 2).length || void 0,
        llm_call_count: numberAttr(rootAttrs.agentv_trace_llm_call_count) ?? (llmSpans.length > 0 ? llmSpans.length : void 0)
      },
      spans: [
        ...llmSpans.map((span) => ({
          type: "llm",
          name: span.name ?? "chat",
          duration_ms: durationFromSpan(span)
        })),
        ...toolSpans.map((span) => ({
          type: "tool",
          name: String(span.parsedAttributes.gen_ai_tool_name),
          duration_ms: durationFromSpan(span)
        }))
      ],
      duration_ms: numberAttr(rootAttrs.agentv_trace_duration_ms) ?? durationFromSpan(root),
      cost_usd: numberAttr(rootAttrs.agentv_trace_cost_usd),
      token_usage: tokenUsage.input || tokenUsage.output || tokenUsage.cached || numberAttr(rootAttrs.agentv_trace_token_input) || numberAttr(rootAttrs.agentv_trace_token_output) || numberAttr(rootAttrs.agentv_trace_token_cached) ? {
        input: tokenUsage.input || numberAttr(rootAttrs.agentv_trace_token_input) || 0,
        output: tokenUsage.output || numberAttr(rootAttrs.agentv_trace_token_output) || 0,
        ...tokenUsage.cached || numberAttr(rootAttrs.agentv_trace_token_cached) ? {
          cached: tokenUsage.cached || numberAttr(rootAttrs.agentv_trace_token_cached) || 0
        } : {}
      } : void 0
    });
    const score = numberAttr(rootAttrs.agentv_score);
    if (score === void 0) {
      throw new Error(
        `Unsupported OTLP trace root span at index ${index + 1}: missing agentv.score attribute`
      );
    }
    return {
      test_id: stringAttr(rootAttrs.agentv_test_id) ?? stringAttr(rootAttrs.agentv_eval_id) ?? `trace-${index + 1}`,
      suite: stringAttr(rootAttrs.agentv_suite),
      target: stringAttr(rootAttrs.agentv_target),
      score,
      error: root.status?.code === 2 ? root.status.message : void 0,
      cost_usd: traceSummary?.cost_usd,
      duration_ms: traceSummary?.duration_ms,
      token_usage: traceSummary?.token_usage,
      trace: traceSummary ? {
        event_count: traceSummary.event_count,
        tool_calls: traceSummary.tool_calls,
        error_count: traceSummary.error_count,
        tool_durations: traceSummary.tool_durations,
        llm_call_count: traceSummary.llm_call_count,
        token_usage: traceSummary.token_usage,
        cost_usd: traceSummary.cost_usd,
        duration_ms: traceSummary.duration_ms
      } : void 0,
      spans: traceSummary?.spans,
      output: stringAttr(rootAttrs.agentv_output_text),
      scores: root.events?.filter(
        (event) => event.name?.startsWith("agentv.grader.") || event.name?.startsWith("agentv.evaluator.")
      ).map((event) => {
        const attrs = parseOtlpAttributes(event.attributes);
        const name = event.name?.replace(/^agentv\.grader\./, "").replace(/^agentv\.evaluator\./, "") ?? "unknown";
        return {
          name,
          type: stringAttr(attrs.agentv_grader_type) ?? stringAttr(attrs.agentv_evaluator_type) ?? "unknown",
          score: numberAttr(attrs.agentv_grader_score) ?? numberAttr(attrs.agentv_evaluator_score) ?? 0
        };
      })
    };
  });
}
function isAgentvEvalRoot(span) {
  const attrs = parseOtlpAttributes(span.attributes);
  return span.name === "agentv.eval" || numberAttr(attrs.agentv_score) !== void 0 || typeof stringAttr(attrs.agentv_test_id) === "string";
}
function collectChildSpans(spanId, childMap) {
  if (!spanId) return [];
  const direct = childMap.get(spanId) ?? [];
  const all = [...direct];
  for (const child of direct) {
    all.push(...collectChildSpans(child.spanId, childMap));
  }
  return all;
}
function parseOtlpAttributes(attributes) {
  const parsed = {};
  for (const attribute of attributes ?? []) {
    parsed[attribute.key.replace(/\./g, "_")] = parseOtlpValue(attribute.value);
  }
  return parsed;
}
function parseOtlpValue(value) {
  if (!value) return void 0;
  if ("stringValue" in value && value.stringValue !== void 0) return value.stringValue;
  if ("intValue" in value && value.intValue !== void 0) return Number(value.intValue);
  if ("doubleValue" in value && value.doubleValue !== void 0) return value.doubleValue;
  if ("boolValue" in value && value.boolValue !== void 0) return value.boolValue;
  if ("arrayValue" in value)
    return (value.arrayValue?.values ?? []).map((entry) => parseOtlpValue(entry));
  return void 0;
}
function durationFromSpan(span) {
  const start = Number(span.startTimeUnixNano);
  const end = Number(span.endTimeUnixNano);
  if (!Number.isFinite(start) || !Number.isFinite(end)) return void 0;
  return Math.round((end - start) / 1e6);
}
function stringAttr(value) {
  return typeof value === "string" ? value : void 0;
}
function numberAttr(value) {
  return typeof value === "number" && Number.isFinite(value) ? value : void 0;
}
function buildDerivedTraceSummary(result) {
  const toolSpans = (result.spans ?? []).filter((span) => span.type === "tool");
  const llmSpans = (result.spans ?? []).filter((span) => span.type === "llm");
  const toolCalls = result.trace?.tool_calls ?? countRawSpanNames(toolSpans);
  const toolDurations = result.trace?.tool_durations ?? groupRawSpanDurations(toolSpans);
  const hasSpanData = (result.spans?.length ?? 0) > 0;
  const eventCount = result.trace?.event_count ?? (hasSpanData ? toolSpans.length : void 0);
  const llmCallCount = result.trace?.llm_call_count ?? (hasSpanData ? llmSpans.length : void 0);
  if (!result.trace && !result.spans?.length && result.token_usage === void 0 && result.cost_usd === void 0 && result.duration_ms === void 0) {
    return void 0;
  }
  return {
    event_count: eventCount,
    tool_calls: toolCalls,
    error_count: result.trace?.error_count,
    tool_durations: toolDurations,
    llm_call_count: llmCallCount,
    token_usage: result.trace?.token_usage ?? result.token_usage,
    cost_usd: result.trace?.cost_usd ?? result.cost_usd,
    duration_ms: result.trace?.duration_ms ?? result.duration_ms,
    spans: result.spans
  };
}
function countRawSpanNames(spans) {
  const counts = {};
  for (const span of spans) {
    counts[span.name] = (counts[span.name] ?? 0) + 1;
  }
  return Object.keys(counts).length > 0 ? counts : void 0;
}
function groupRawSpanDurations(spans) {
  const grouped = {};
  for (const span of spans) {
    if (span.duration_ms === void 0) continue;
    const existing = grouped[span.name] ?? [];
    existing.push(span.duration_ms);
    grouped[span.name] = existing;
  }
  return Object.keys(grouped).length > 0 ? grouped : void 0;
}
function getTraceSummary(result) {
  const derived = buildDerivedTraceSummary(result);
  if (!derived) return void 0;
  const { spans: _spans, ...trace } = derived;
  return trace;
}
function getTraceSpans(result) {
  return buildDerivedTraceSummary(result)?.spans ?? [];
}
function toTraceSummary(result) {
  const rawTrace = getTraceSummary(result);
  if (!rawTrace) return void 0;
  return toCamelCaseDeep(rawTrace);
}
function buildRunId(relativeRunPath) {
  const normalized = relativeRunPath.split(path6.sep).join("/");
  const segments = normalized.split("/").filter(Boolean);
  return segments[0] ?? normalized;
}
function readRunDisplayName(runDir) {
  try {
    const summary = JSON.parse(readFileSync3(path6.join(runDir, "summary.json"), "utf8"));
    const displayName = summary.metadata?.display_name;
    return typeof displayName === "string" && displayName.trim() ? displayName.trim() : void 0;
  } catch {
    return void 0;
  }
}
function collectRunManifestPaths(runsDir, currentDir, files) {
  const primaryPath = resolveExistingRunPrimaryPath(currentDir);
  if (primaryPath) {
    const relativeRunPath = path6.relative(runsDir, currentDir);
    const sortName = path6.basename(currentDir);
    files.push({
      filePath: primaryPath,
      displayName: readRunDisplayName(currentDir) ?? sortName,
      runId: buildRunId(relativeRunPath),
      sortName
    });
    return;
  }
}
function listResultFilesFromRoot(runsDir, options) {
  const files = [];
  try {
    const entries = readdirSync2(runsDir, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (options?.skipTopLevelDirs?.has(entry.name) || isReservedResultsNamespace(entry.name)) {
          continue;
        }
        collectRunManifestPaths(runsDir, path6.join(runsDir, entry.name), files);
      }
    }
  } catch {
  }
  files.sort((a, b) => b.sortName.localeCompare(a.sortName));
  const limited = options?.limit !== void 0 && options.limit > 0 ? files.slice(0, options.limit) : files;
  const metas = [];
  for (const { filePath, displayName, runId } of limited) {
    try {
      const fileStat = statSync2(filePath);
      const results = loadLightweightResults(filePath);
      const testCount = results.length;
      const passCount = results.filter((r) => r.score >= DEFAULT_THRESHOLD).length;
      const passRate = testCount > 0 ? passCount / testCount : 0;
      const avgScore = testCount > 0 ? results.reduce((sum, r) => sum + r.score, 0) / testCount : 0;
      const filenameTimestamp = extractTimestampFromFilename(displayName);
      const timestamp = filenameTimestamp ?? results[0]?.timestamp ?? "unknown";
      metas.push({
        path: filePath,
        filename: runId,
        displayName,
        timestamp,
        testCount,
        passRate,
        avgScore,
        sizeBytes: fileStat.size
      });
    } catch {
    }
  }
  return metas;
}
function listResultFiles(cwd, limit) {
  const metas = listResultFilesFromRoot(buildResultsRootDir(cwd), {
    skipTopLevelDirs: /* @__PURE__ */ new Set(["export", "metadata", "runs", ".indexes", ".cache"])
  }).sort((a, b) => {
    const byTimestamp = b.timestamp.localeCompare(a.timestamp);
    return byTimestamp !== 0 ? byTimestamp : b.displayName.localeCompare(a.displayName);
  });
  return limit !== void 0 && limit > 0 ? metas.slice(0, limit) : metas;
}
function listResultFilesFromRunsDir(runsDir, limit) {
  return listResultFilesFromRoot(runsDir, {
    limit,
    skipTopLevelDirs: /* @__PURE__ */ new Set(["export", "metadata", "runs", ".indexes", ".cache"])
  });
}
function extractTimestampFromFilename(filename) {
  const match = filename.match(
    /(?:^|eval_)(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)(?:\.jsonl)?$/
  );
  if (!match) return void 0;
  return match[1].replace(/-(\d{2})-(\d{2})-(\d{3})Z$/, ":$1:$2.$3Z");
}
function formatNumber(n) {
  return n.toLocaleString();
}
function formatDuration(ms) {
  if (ms < 1e3) return `${Math.round(ms)}ms`;
  if (ms < 6e4) return `${(ms / 1e3).toFixed(1)}s`;
  const minutes = Math.floor(ms / 6e4);
  const seconds = (ms % 6e4 / 1e3).toFixed(0);
  return `${minutes}m${seconds}s`;
}
function formatCost(usd) {
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(3)}`;
}
function formatSize(bytes) {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}
function formatScore(score) {
  return `${(score * 100).toFixed(0)}%`;
}

// src/commands/results/remote.ts
var gitRunsCache = /* @__PURE__ */ new Map();
var GIT_RUNS_CACHE_TTL_MS = 6e4;
function getResultsStorageRef(config) {
  if (!config.branch) {
    return void 0;
  }
  return config.storageBranchWorktree ? `refs/remotes/${config.remote}/${config.branch}` : config.branch;
}
function cachedListGitRuns(repoDir, ref) {
  const now = Date.now();
  const cacheKey = `${repoDir}\0${ref ?? ""}`;
  const cached = gitRunsCache.get(cacheKey);
  if (cached && cached.expiresAt > now) {
    return cached.data;
  }
  const promise = ref ? listGitRunsCached(repoDir, ref) : listGitRunsCached(repoDir);
  gitRunsCache.set(cacheKey, { data: promise, expiresAt: now + GIT_RUNS_CACHE_TTL_MS });
  promise.catch(() => {
  }).finally(() => {
    const entry = gitRunsCache.get(cacheKey);
    if (entry && entry.expiresAt <= Date.now()) {
      gitRunsCache.delete(cacheKey);
    }
  });
  return promise;
}
function invalidateGitRunsCache(repoDir) {
  for (const key of gitRunsCache.keys()) {
    if (key.startsWith(`${repoDir}\0`)) {
      gitRunsCache.delete(key);
    }
  }
}
var REMOTE_RUN_PREFIX = "remote::";
var SIZE_WARNING_BYTES = 10 * 1024 * 1024;
function getStatusMessage(error) {
  return error instanceof Error ? error.message : String(error);
}
function getRelativeRunPath(cwd, runDir) {
  const relative = relativeRunPathFromCwd(cwd, runDir);
  if (relative) {
    return relative;
  }
  throw new Error(`Run workspace must use .agentv/results/<run_id>: ${path7.resolve(runDir)}`);
}
function buildCommitTitle(payload) {
  const passed = payload.results.filter((result) => result.score >= DEFAULT_THRESHOLD).length;
  const avgScore = payload.results.length > 0 ? payload.results.reduce((sum, result) => sum + result.score, 0) / payload.results.length : 0;
  const experiment = payload.experiment ?? "default";
  return `feat(results): ${experiment} - ${passed}/${payload.results.length} PASS (${avgScore.toFixed(3)})`;
}
async function maybeWarnLargeArtifact(runDir) {
  const sizeBytes = await directorySizeBytes(runDir);
  if (sizeBytes > SIZE_WARNING_BYTES) {
    console.warn(
      `Warning: run artifacts total ${(sizeBytes / (1024 * 1024)).toFixed(1)}MB. Export will continue.`
    );
  }
}
async function loadNormalizedResultsConfig(cwd, projectId, overrides) {
  const repoRoot = await findRepoRoot(cwd) ?? cwd;
  const config = await loadConfig(path7.join(cwd, "_"), repoRoot);
  const project = projectId !== void 0 ? getProject(projectId) : getProjectForPath(repoRoot) ?? getProjectForPath(cwd);
  const projectResults = project?.results ? {
    ...project.results.repo !== void 0 && { repo: project.results.repo },
    ...project.results.path !== void 0 && { path: project.results.path },
    ...project.results.branch !== void 0 && { branch: project.results.branch },
    ...project.results.autoPush !== void 0 && { auto_push: project.results.autoPush }
  } : void 0;
  const resultsConfig = projectResults ?? resolveResultsConfigForProject(config, project?.id);
  if (!resultsConfig && !overrides) {
    return void 0;
  }
  const baseConfig = resultsConfig ? normalizeResultsConfig(resultsConfig, { baseDir: project?.path ?? repoRoot }) : void 0;
  const repoOverride = overrides?.repo ?? overrides?.repo_path;
  if (!baseConfig && !repoOverride) {
    return void 0;
  }
  if (!overrides) {
    return baseConfig;
  }
  const merged = {
    mode: "github",
    ...overrides.repo !== void 0 ? { repo: overrides.repo } : overrides.repo_path !== void 0 ? { repo_path: overrides.repo_path } : baseConfig?.repo_path ? { repo_path: baseConfig.repo_path } : baseConfig?.repo_url ? { repo_url: baseConfig.repo_url } : baseConfig?.repo ? { repo: baseConfig.repo } : {},
    ...overrides.branch !== void 0 ? { branch: overrides.branch } : baseConfig?.branch ? { branch: baseConfig.branch } : {},
    ...overrides.remote !== void 0 ? { remote: overrides.remote } : baseConfig?.remote ? { remote: baseConfig.remote } : {},
    ...repoOverride === void 0 && baseConfig?.repo_path === void 0 && baseConfig?.path ? { path: baseConfig.path } : {},
    ...(overrides.auto_push ?? baseConfig?.auto_push) !== void 0 && {
      auto_push: overrides.auto_push ?? baseConfig?.auto_push
    },
    ...(overrides.require_push ?? baseConfig?.require_push) !== void 0 && {
      require_push: overrides.require_push ?? baseConfig?.require_push
    }
  };
  return normalizeResultsConfig(merged, { baseDir: project?.path ?? repoRoot });
}
function encodeRemoteRunId(filename) {
  return `${REMOTE_RUN_PREFIX}${filename}`;
}
function isRemoteRunId(filename) {
  return filename.startsWith(REMOTE_RUN_PREFIX);
}
async function getRemoteResultsStatus(cwd, projectId) {
  const config = await loadNormalizedResultsConfig(cwd, projectId);
  const status = await getResultsRepoSyncStatus(config);
  const runCount = await getRemoteRunCount(config, status);
  return {
    ...status,
    run_count: runCount
  };
}
async function getRemoteRunCount(config, status) {
  let runCount = 0;
  if (config && status.available) {
    try {
      runCount = (await cachedListGitRuns(config.path, getResultsStorageRef(config))).length;
    } catch {
      if (!config.branch) {
        runCount = listResultFilesFromRunsDir(resolveResultsRepoRunsDir(config)).length;
      }
    }
  }
  return runCount;
}
async function syncRemoteResults(cwd, projectId) {
  const config = await loadNormalizedResultsConfig(cwd, projectId);
  if (!config) {
    return {
      ...await getResultsRepoSyncStatus(),
      run_count: 0
    };
  }
  try {
    const status = await syncResultsRepoForProject(config);
    invalidateGitRunsCache(config.path);
    return {
      ...status,
      run_count: await getRemoteRunCount(config, status)
    };
  } catch (error) {
    const status = await getResultsRepoSyncStatus(config);
    return {
      ...status,
      run_count: await getRemoteRunCount(config, status),
      last_error: getStatusMessage(error),
      blocked: true,
      block_reason: getStatusMessage(error)
    };
  }
}
async function confirmRemoteResultsMerge(cwd, projectId) {
  const config = await loadNormalizedResultsConfig(cwd, projectId);
  if (!config) {
    return {
      ...await getResultsRepoSyncStatus(),
      run_count: 0
    };
  }
  try {
    const status = await confirmResultsMergeAndPull(config);
    invalidateGitRunsCache(config.path);
    return {
      ...status,
      run_count: await getRemoteRunCount(config, status)
    };
  } catch (error) {
    const status = await getResultsRepoSyncStatus(config);
    return {
      ...status,
      run_count: await getRemoteRunCount(config, status),
      last_error: getStatusMessage(error),
      blocked: true,
      block_reason: getStatusMessage(error)
    };
  }
}
function dedupeSyncedRunCopies(runs) {
  const byRunId = /* @__PURE__ */ new Map();
  for (const run of runs) {
    const existing = byRunId.get(run.raw_filename);
    if (!existing) {
      byRunId.set(run.raw_filename, run);
      continue;
    }
    const preferred = existing.source === "remote" && run.source === "local" ? run : existing;
    byRunId.set(run.raw_filename, {
      ...preferred,
      on_remote: existing.on_remote || run.on_remote
    });
  }
  return [...byRunId.values()];
}
async function listMergedResultFiles(cwd, limit, projectId) {
  const localRuns = listResultFiles(cwd).map(
    (meta) => ({
      ...meta,
      source: "local",
      raw_filename: meta.filename,
      on_remote: false
    })
  );
  const remoteStatus = await getRemoteResultsStatus(cwd, projectId);
  const config = await loadNormalizedResultsConfig(cwd, projectId);
  if (!config || !remoteStatus.available) {
    return {
      runs: limit !== void 0 && limit > 0 ? localRuns.slice(0, limit) : localRuns,
      remote_status: remoteStatus
    };
  }
  let remoteRuns = [];
  if (config.mode === "github") {
    try {
      const gitRuns = await cachedListGitRuns(config.path, getResultsStorageRef(config));
      remoteRuns = gitRuns.map((r) => ({
        filename: encodeRemoteRunId(r.run_id),
        raw_filename: r.run_id,
        source: "remote",
        on_remote: true,
        path: path7.join(
          config.path,
          r.index_path ?? r.manifest_path ?? ""
        ),
        ...r.summary_path && { summaryPath: path7.join(config.path, r.summary_path) },
        experiment: r.experiment,
        ...r.target && { target: r.target },
        displayName: r.display_name,
        timestamp: r.timestamp,
        testCount: r.test_count,
        ...r.execution_error_count !== void 0 && {
          executionErrorCount: r.execution_error_count
        },
        passRate: r.pass_rate || 0,
        avgScore: r.avg_score || 0,
        sizeBytes: r.size_bytes || 0
      }));
    } catch (error) {
      if (config.branch) {
        console.error("git-native listing failed for configured results branch", error);
      } else {
        console.error("git-native listing failed, falling back", error);
        remoteRuns = listResultFilesFromRunsDir(resolveResultsRepoRunsDir(config)).map(
          (meta) => ({
            ...meta,
            filename: encodeRemoteRunId(meta.filename),
            raw_filename: meta.filename,
            source: "remote",
            on_remote: true
          })
        );
      }
    }
  } else {
    remoteRuns = listResultFilesFromRunsDir(resolveResultsRepoRunsDir(config)).map(
      (meta) => ({
        ...meta,
        filename: encodeRemoteRunId(meta.filename),
        raw_filename: meta.filename,
        source: "remote",
        on_remote: true
      })
    );
  }
  const merged = dedupeSyncedRunCopies([...localRuns, ...remoteRuns]).sort(
    (a, b) => b.timestamp.localeCompare(a.timestamp)
  );
  return {
    runs: limit !== void 0 && limit > 0 ? merged.slice(0, limit) : merged,
    remote_status: remoteStatus
  };
}
async function findRunById(cwd, runId, projectId) {
  const { runs } = await listMergedResultFiles(cwd, void 0, projectId);
  return runs.find((run) => run.filename === runId);
}
async function ensureRemoteRunAvailable(cwd, meta, projectId) {
  if (meta.source !== "remote" || existsSync3(meta.path)) {
    return;
  }
  const config = await loadNormalizedResultsConfig(cwd, projectId);
  if (!config) {
    throw new Error("Remote results are not configured");
  }
  const relativeManifestPath = path7.relative(config.path, meta.path).split(path7.sep).join("/");
  if (relativeManifestPath.length === 0 || relativeManifestPath === meta.path || relativeManifestPath.startsWith("../")) {
    throw new Error(`Remote manifest path is outside the results repo clone: ${meta.path}`);
  }
  const relativeRunPath = relativeRunPathFromManifestPath(relativeManifestPath);
  await materializeGitRun(config.path, relativeRunPath, getResultsStorageRef(config));
}
function relativeRunPathFromManifestPath(relativeManifestPath) {
  const manifestDir = path7.posix.dirname(relativeManifestPath);
  return path7.posix.basename(manifestDir) === ".internal" ? path7.posix.dirname(manifestDir) : manifestDir;
}
async function maybeAutoExportRunArtifacts(payload) {
  const config = await loadNormalizedResultsConfig(
    payload.cwd,
    void 0,
    payload.results_overrides
  );
  if (!config) {
    return "disabled";
  }
  try {
    await maybeWarnLargeArtifact(payload.run_dir);
    const relativeRunPath = getRelativeRunPath(payload.cwd, payload.run_dir);
    const commitTitle = buildCommitTitle(payload);
    const pushResult = await directPushResultsWithDetails({
      config,
      sourceDir: payload.run_dir,
      destinationPath: relativeRunPath,
      commitMessage: commitTitle
    });
    if (pushResult.blocked) {
      if (config.require_push) {
        throw new Error(pushResult.block_reason ?? "Results branch push conflict");
      }
      console.warn(`Warning: skipping results export: ${pushResult.block_reason}`);
      return "failed";
    }
    if (!pushResult.changed) {
      console.warn("Warning: results export produced no git changes.");
      return "already_published";
    }
    const pushLabel = config.auto_push || config.require_push ? "pushed" : "published locally";
    console.log(
      `Results ${pushLabel} to ${config.repo} (${config.branch ?? "default branch"}:${relativeRunPath})`
    );
    if (pushResult.backup_ref) {
      console.log(
        `Backed up previous remote ${pushResult.target_branch ?? config.branch ?? "results branch"} at ${pushResult.backup_ref}`
      );
    }
    return "published";
  } catch (error) {
    if (config.require_push) {
      throw error;
    }
    console.warn(`Warning: skipping results export: ${getStatusMessage(error)}`);
    console.warn("Warning: Run 'gh auth login' if GitHub authentication is missing.");
    return "failed";
  }
}

// src/commands/eval/env.ts
import { constants as constants3 } from "node:fs";
import { access as access3 } from "node:fs/promises";
import path8 from "node:path";
import { config as loadDotenv } from "dotenv";
function uniqueDirs(directories) {
  const seen = /* @__PURE__ */ new Set();
  const result = [];
  for (const dir of directories) {
    const absolute = path8.resolve(dir);
    if (seen.has(absolute)) {
      continue;
    }
    seen.add(absolute);
    result.push(absolute);
  }
  return result;
}
async function fileExists2(filePath) {
  try {
    await access3(filePath, constants3.F_OK);
    return true;
  } catch {
    return false;
  }
}
function collectAncestorDirectories(start, boundary) {
  const directories = [];
  const boundaryDir = path8.resolve(boundary);
  let current = path8.resolve(start);
  while (current !== void 0) {
    directories.push(current);
    if (current === boundaryDir) {
      break;
    }
    const parent = path8.dirname(current);
    if (parent === current) {
      break;
    }
    current = parent;
  }
  return directories;
}
async function loadEnvFromHierarchy(options) {
  const { testFilePath, repoRoot, verbose } = options;
  const testDir = path8.dirname(path8.resolve(testFilePath));
  const cwd = process.cwd();
  const searchDirs = uniqueDirs([...collectAncestorDirectories(testDir, repoRoot), repoRoot, cwd]);
  const envFiles = [];
  for (const dir of searchDirs) {
    const candidate = path8.join(dir, ".env");
    if (await fileExists2(candidate)) {
      envFiles.push(candidate);
    }
  }
  if (envFiles.length === 0) {
    if (verbose) {
      console.log("No .env file found in hierarchy");
    }
    return void 0;
  }
  for (let i = 0; i < envFiles.length; i++) {
    const envFile = envFiles[i];
    loadDotenv({ path: envFile, override: false });
    if (verbose) {
      console.log(`Loaded environment from: ${envFile}`);
    }
  }
  return envFiles[0];
}

// src/commands/eval/jsonl-writer.ts
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path9 from "node:path";
import { finished } from "node:stream/promises";

// ../../node_modules/.bun/async-mutex@0.5.0/node_modules/async-mutex/index.mjs
var E_TIMEOUT = new Error("timeout while waiting for mutex to become available");
var E_ALREADY_LOCKED = new Error("mutex already locked");
var E_CANCELED = new Error("request for lock canceled");
var __awaiter$2 = function(thisArg, _arguments, P, generator) {
  function adopt(value) {
    return value instanceof P ? value : new P(function(resolve) {
      resolve(value);
    });
  }
  return new (P || (P = Promise))(function(resolve, reject) {
    function fulfilled(value) {
      try {
        step(generator.next(value));
      } catch (e) {
        reject(e);
      }
    }
    function rejected(value) {
      try {
        step(generator["throw"](value));
      } catch (e) {
        reject(e);
      }
    }
    function step(result) {
      result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected);
    }
    step((generator = generator.apply(thisArg, _arguments || [])).next());
  });
};
var Semaphore = class {
  constructor(_value, _cancelError = E_CANCELED) {
    this._value = _value;
    this._cancelError = _cancelError;
    this._queue = [];
    this._weightedWaiters = [];
  }
  acquire(weight = 1, priority = 0) {
    if (weight <= 0)
      throw new Error(`invalid weight ${weight}: must be positive`);
    return new Promise((resolve, reject) => {
      const task = { resolve, reject, weight, priority };
      const i = findIndexFromEnd(this._queue, (other) => priority <= other.priority);
      if (i === -1 && weight <= this._value) {
        this._dispatchItem(task);
      } else {
        this._queue.splice(i + 1, 0, task);
      }
    });
  }
  runExclusive(callback_1) {
    return __awaiter$2(this, arguments, void 0, function* (callback, weight = 1, priority = 0) {
      const [value, release] = yield this.acquire(weight, priority);
      try {
        return yield callback(value);
      } finally {
        release();
      }
    });
  }
  waitForUnlock(weight = 1, priority = 0) {
    if (weight <= 0)
      throw new Error(`invalid weight ${weight}: must be positive`);
    if (this._couldLockImmediately(weight, priority)) {
      return Promise.resolve();
    } else {
      return new Promise((resolve) => {
        if (!this._weightedWaiters[weight - 1])
          this._weightedWaiters[weight - 1] = [];
        insertSorted(this._weightedWaiters[weight - 1], { resolve, priority });
      });
    }
  }
  isLocked() {
    return this._value <= 0;
  }
  getValue() {
    return this._value;
  }
  setValue(value) {
    this._value = value;
    this._dispatchQueue();
  }
  release(weight = 1) {
    if (weight <= 0)
      throw new Error(`invalid weight ${weight}: must be positive`);
    this._value += weight;
    this._dispatchQueue();
  }
  cancel() {
    this._queue.forEach((entry) => entry.reject(this._cancelError));
    this._queue = [];
  }
  _dispatchQueue() {
    this._drainUnlockWaiters();
    while (this._queue.length > 0 && this._queue[0].weight <= this._value) {
      this._dispatchItem(this._queue.shift());
      this._drainUnlockWaiters();
    }
  }
  _dispatchItem(item) {
    const previousValue = this._value;
    this._value -= item.weight;
    item.resolve([previousValue, this._newReleaser(item.weight)]);
  }
  _newReleaser(weight) {
    let called = false;
    return () => {
      if (called)
        return;
      called = true;
      this.release(weight);
    };
  }
  _drainUnlockWaiters() {
    if (this._queue.length === 0) {
      for (let weight = this._value; weight > 0; weight--) {
        const waiters = this._weightedWaiters[weight - 1];
        if (!waiters)
          continue;
        waiters.forEach((waiter) => waiter.resolve());
        this._weightedWaiters[weight - 1] = [];
      }
    } else {
      const queuedPriority = this._queue[0].priority;
      for (let weight = this._value; weight > 0; weight--) {
        const waiters = this._weightedWaiters[weight - 1];
        if (!waiters)
          continue;
        const i = waiters.findIndex((waiter) => waiter.priority <= queuedPriority);
        (i === -1 ? waiters : waiters.splice(0, i)).forEach((waiter) => waiter.resolve());
      }
    }
  }
  _couldLockImmediately(weight, priority) {
    return (this._queue.length === 0 || this._queue[0].priority < priority) && weight <= this._value;
  }
};
function insertSorted(a, v) {
  const i = findIndexFromEnd(a, (other) => v.priority <= other.priority);
  a.splice(i + 1, 0, v);
}
function findIndexFromEnd(a, predicate) {
  for (let i = a.length - 1; i >= 0; i--) {
    if (predicate(a[i])) {
      return i;
    }
  }
  return -1;
}
var __awaiter$1 = function(thisArg, _arguments, P, generator) {
  function adopt(value) {
    return value instanceof P ? value : new P(function(resolve) {
      resolve(value);
    });
  }
  return new (P || (P = Promise))(function(resolve, reject) {
    function fulfilled(value) {
      try {
        step(generator.next(value));
      } catch (e) {
        reject(e);
      }
    }
    function rejected(value) {
      try {
        step(generator["throw"](value));
      } catch (e) {
        reject(e);
      }
    }
    function step(result) {
      result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected);
    }
    step((generator = generator.apply(thisArg, _arguments || [])).next());
  });
};
var Mutex = class {
  constructor(cancelError) {
    this._semaphore = new Semaphore(1, cancelError);
  }
  acquire() {
    return __awaiter$1(this, arguments, void 0, function* (priority = 0) {
      const [, releaser] = yield this._semaphore.acquire(1, priority);
      return releaser;
    });
  }
  runExclusive(callback, priority = 0) {
    return this._semaphore.runExclusive(() => callback(), 1, priority);
  }
  isLocked() {
    return this._semaphore.isLocked();
  }
  waitForUnlock(priority = 0) {
    return this._semaphore.waitForUnlock(1, priority);
  }
  release() {
    if (this._semaphore.isLocked())
      this._semaphore.release();
  }
  cancel() {
    return this._semaphore.cancel();
  }
};

// src/commands/eval/jsonl-writer.ts
var JsonlWriter = class _JsonlWriter {
  stream;
  mutex = new Mutex();
  closed = false;
  constructor(stream) {
    this.stream = stream;
  }
  static async open(filePath, options) {
    await mkdir(path9.dirname(filePath), { recursive: true });
    const flags = options?.append ? "a" : "w";
    const stream = createWriteStream(filePath, { flags, encoding: "utf8" });
    return new _JsonlWriter(stream);
  }
  async append(record) {
    await this.mutex.runExclusive(async () => {
      if (this.closed) {
        throw new Error("Cannot write to closed JSONL writer");
      }
      const snakeCaseRecord = serializeEvaluationResultWire(record);
      const line = `${JSON.stringify(snakeCaseRecord)}
`;
      if (!this.stream.write(line)) {
        await new Promise((resolve, reject) => {
          this.stream.once("drain", resolve);
          this.stream.once("error", reject);
        });
      }
    });
  }
  async close() {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.stream.end();
    await finished(this.stream);
  }
};

// src/commands/eval/output-writer.ts
async function createOutputWriter(filePath, options) {
  return JsonlWriter.open(filePath, { append: options?.append });
}

// src/commands/eval/progress-display.ts
var ANSI_BOLD = "\x1B[1m";
var ANSI_GREEN = "\x1B[32m";
var ANSI_RED2 = "\x1B[31m";
var ANSI_YELLOW2 = "\x1B[33m";
var ANSI_RESET2 = "\x1B[0m";
function useColors() {
  if (process.env.NO_COLOR !== void 0) return false;
  return process.stdout.isTTY ?? false;
}
function formatVerdict(score, verdict) {
  if (verdict === void 0) return "";
  const colors2 = useColors();
  const scoreStr = score !== void 0 ? `${Math.round(score * 100)}%` : "";
  const verdictLabel = verdict === "ERROR" ? "ERROR" : `${scoreStr} ${verdict}`;
  if (!colors2) return ` | ${verdictLabel}`;
  const color = verdict === "PASS" ? ANSI_GREEN : verdict === "FAIL" ? ANSI_RED2 : ANSI_YELLOW2;
  return ` | ${color}${ANSI_BOLD}${verdictLabel}${ANSI_RESET2}`;
}
function formatDurations(durationMs, totalDurationMs) {
  if (durationMs === void 0 && totalDurationMs === void 0) {
    return "";
  }
  if (durationMs !== void 0 && totalDurationMs !== void 0) {
    const normalizedTotalMs = Math.max(durationMs, totalDurationMs);
    return ` | ${durationMs}/${normalizedTotalMs}ms`;
  }
  const singleDurationMs = durationMs ?? totalDurationMs;
  return singleDurationMs !== void 0 ? ` | ${singleDurationMs}ms` : "";
}
var ProgressDisplay = class {
  workers = /* @__PURE__ */ new Map();
  totalTests = 0;
  completedTests = 0;
  started = false;
  finished = false;
  verbose;
  constructor(_maxWorkers, options) {
    this.verbose = options?.verbose ?? false;
  }
  isInteractiveMode() {
    return false;
  }
  start() {
    this.started = true;
    this.finished = false;
  }
  setTotalTests(count) {
    this.totalTests = count;
  }
  updateWorker(progress) {
    const previous = this.workers.get(progress.workerId);
    this.workers.set(progress.workerId, progress);
    if (progress.status === "completed" || progress.status === "failed") {
      this.completedTests++;
    }
    const targetSuffix = progress.targetLabel ? ` | ${progress.targetLabel}` : "";
    const countPrefix = `${this.completedTests}/${this.totalTests}`;
    switch (progress.status) {
      case "pending":
        if (this.verbose && !previous) {
          console.log(`${countPrefix}   \u23F3 ${progress.testId}${targetSuffix}`);
        }
        break;
      case "running":
        if (!previous || previous.status === "pending") {
          console.log(`${countPrefix}   \u{1F504} ${progress.testId}${targetSuffix}`);
        }
        break;
      case "completed": {
        const icon = progress.verdict === "FAIL" ? "\u26A0\uFE0F" : progress.verdict === "ERROR" ? "\u274C" : "\u2705";
        console.log(
          `${countPrefix}   ${icon} ${progress.testId}${targetSuffix}${formatVerdict(progress.score, progress.verdict)}${formatDurations(progress.durationMs, progress.totalDurationMs)}`
        );
        break;
      }
      case "failed": {
        const failIcon = progress.verdict === "ERROR" ? "\u274C" : "\u26A0\uFE0F";
        console.log(
          `${countPrefix}   ${failIcon} ${progress.testId}${targetSuffix}${formatVerdict(progress.score, progress.verdict)}${formatDurations(progress.durationMs, progress.totalDurationMs)}${progress.error ? `: ${progress.error}` : ""}`
        );
        break;
      }
    }
  }
  addLogPaths(paths) {
  }
  finish() {
    this.finished = true;
    console.log("");
  }
  clear() {
  }
};

// src/commands/eval/retry-errors.ts
async function loadRetrySourceResults(jsonlPath) {
  return loadManifestResults(resolveResultSourcePath(jsonlPath));
}
function escapeGlob(id) {
  return id.replace(/[*?[\]{}()!@#+|\\]/g, "\\$&");
}
async function loadErrorTestIds(jsonlPath) {
  const ids = (await loadRetrySourceResults(jsonlPath)).filter((result) => result.executionStatus === "execution_error").map((result) => result.testId);
  return [...new Set(ids)];
}
async function loadFullyCompletedTestIds(jsonlPath) {
  const results = await loadRetrySourceResults(jsonlPath);
  const allIds = /* @__PURE__ */ new Set();
  const errorIds = /* @__PURE__ */ new Set();
  for (const result of results) {
    if (!result.testId) continue;
    allIds.add(result.testId);
    if (result.executionStatus === "execution_error") {
      errorIds.add(result.testId);
    }
  }
  return [...allIds].filter((id) => !errorIds.has(id));
}
function buildExclusionFilter(completedIds) {
  const escaped = completedIds.map(escapeGlob);
  return escaped.length === 1 ? `!${escaped[0]}` : `!{${escaped.join(",")}}`;
}
async function loadNonErrorResults(jsonlPath) {
  return (await loadRetrySourceResults(jsonlPath)).filter(
    (result) => result.testId && result.executionStatus !== "execution_error"
  );
}

// src/commands/eval/run-cache.ts
import { existsSync as existsSync4 } from "node:fs";
import { mkdir as mkdir2, readFile, writeFile } from "node:fs/promises";
import path10 from "node:path";
var CACHE_FILENAME = "cache.json";
function resolveRunCacheFile(cache) {
  if (cache.lastRunDir) {
    const direct = resolveExistingRunPrimaryPath(cache.lastRunDir);
    if (direct) {
      return direct;
    }
    return discoverRunManifestPaths(cache.lastRunDir)[0] ?? resolveRunIndexPath(cache.lastRunDir);
  }
  return "";
}
function cachePath(cwd) {
  return path10.join(cwd, ".agentv", CACHE_FILENAME);
}
async function loadRunCache(cwd) {
  try {
    const content = await readFile(cachePath(cwd), "utf-8");
    return JSON.parse(content);
  } catch {
    return void 0;
  }
}
async function resolveCachedRunDir(cwd) {
  const cache = await loadRunCache(cwd);
  if (!cache?.lastRunDir) return void 0;
  if (!existsSync4(cache.lastRunDir)) return void 0;
  return cache.lastRunDir;
}
async function saveRunCache(cwd, resultPath) {
  const dir = path10.join(cwd, ".agentv");
  const lastRunDir = isRunManifestPath(resultPath) ? path10.dirname(resultPath) : resultPath;
  await mkdir2(dir, { recursive: true });
  const cache = {
    lastRunDir,
    timestamp: (/* @__PURE__ */ new Date()).toISOString()
  };
  await writeFile(cachePath(cwd), `${JSON.stringify(cache, null, 2)}
`, "utf-8");
}

// src/commands/eval/statistics.ts
var HISTOGRAM_BREAKPOINTS = [0, 0.2, 0.4, 0.6, 0.8, 1];
function computeMean(values) {
  if (values.length === 0) {
    return 0;
  }
  const sum = values.reduce((acc, value) => acc + value, 0);
  return sum / values.length;
}
function computeMedian(values) {
  if (values.length === 0) {
    return 0;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 0) {
    return (sorted[mid - 1] + sorted[mid]) / 2;
  }
  return sorted[mid];
}
function computeStandardDeviation(values) {
  if (values.length < 2) {
    return void 0;
  }
  const mean = computeMean(values);
  const variance = values.reduce((acc, value) => acc + (value - mean) ** 2, 0) / (values.length - 1);
  return Math.sqrt(variance);
}
function buildHistogram(values) {
  const bins = [];
  for (let index = 0; index < HISTOGRAM_BREAKPOINTS.length - 1; index += 1) {
    bins.push({
      range: [HISTOGRAM_BREAKPOINTS[index], HISTOGRAM_BREAKPOINTS[index + 1]],
      count: 0
    });
  }
  for (const value of values) {
    for (const bin of bins) {
      const [start, end] = bin.range;
      const isLastBin = end === HISTOGRAM_BREAKPOINTS[HISTOGRAM_BREAKPOINTS.length - 1];
      const withinRange = isLastBin ? value >= start && value <= end : value >= start && value < end + 1e-9;
      if (withinRange) {
        bin.count += 1;
        break;
      }
    }
  }
  return bins;
}
function calculateEvaluationSummary(results, options) {
  const total = results.length;
  const errors = results.filter((result) => result.error !== void 0).map((result) => ({ testId: result.testId, error: result.error }));
  const errorCount = errors.length;
  if (total === 0) {
    return {
      total: 0,
      mean: 0,
      median: 0,
      min: 0,
      max: 0,
      standardDeviation: void 0,
      histogram: buildHistogram([]),
      topResults: [],
      bottomResults: [],
      errorCount: 0,
      errors: [],
      executionErrorCount: 0,
      qualityFailureCount: 0,
      passedCount: 0,
      byFailureStage: {},
      byFailureReason: {},
      byTargetErrorKind: {}
    };
  }
  const executionErrors = results.filter((r) => r.executionStatus === "execution_error");
  const qualityResults = results.filter((r) => r.executionStatus !== "execution_error");
  const qualityScores = qualityResults.map((r) => r.score);
  const mean = computeMean(qualityScores);
  const median = computeMedian(qualityScores);
  const min = qualityScores.length > 0 ? Math.min(...qualityScores) : 0;
  const max = qualityScores.length > 0 ? Math.max(...qualityScores) : 0;
  const standardDeviation = computeStandardDeviation(qualityScores);
  const histogram = buildHistogram(qualityScores);
  const sortedResults = [...qualityResults].sort((a, b) => b.score - a.score);
  const topResults = sortedResults.slice(0, Math.min(3, sortedResults.length));
  const bottomResults = sortedResults.slice(-Math.min(3, sortedResults.length));
  const executionErrorCount = executionErrors.length;
  const scoreThreshold = options?.threshold;
  const passedCount = scoreThreshold !== void 0 && options?.useExecutionStatus !== true ? qualityResults.filter((r) => r.score >= scoreThreshold).length : results.filter((r) => r.executionStatus === "ok").length;
  const qualityFailureCount = scoreThreshold !== void 0 && options?.useExecutionStatus !== true ? qualityResults.filter((r) => r.score < scoreThreshold).length : results.filter((r) => r.executionStatus === "quality_failure").length;
  const byFailureStage = {};
  const byFailureReason = {};
  const byTargetErrorKind = {};
  for (const result of executionErrors) {
    if (result.failureStage) {
      byFailureStage[result.failureStage] = (byFailureStage[result.failureStage] ?? 0) + 1;
    }
    if (result.failureReasonCode) {
      byFailureReason[result.failureReasonCode] = (byFailureReason[result.failureReasonCode] ?? 0) + 1;
    }
    const targetErrorKind = result.targetExecution?.errorKind;
    if (targetErrorKind) {
      byTargetErrorKind[targetErrorKind] = (byTargetErrorKind[targetErrorKind] ?? 0) + 1;
    }
  }
  return {
    total,
    mean,
    median,
    min,
    max,
    standardDeviation,
    histogram,
    topResults,
    bottomResults,
    errorCount,
    errors,
    executionErrorCount,
    qualityFailureCount,
    passedCount,
    byFailureStage,
    byFailureReason,
    byTargetErrorKind
  };
}
function formatScore2(value) {
  return `${Math.round(value * 100)}%`;
}
function formatEvaluationSummary(summary, options) {
  if (summary.total === 0) {
    return "\nNo results to summarize";
  }
  const lines = [];
  if (summary.errorCount > 0) {
    lines.push("\n==================================================");
    lines.push("EXECUTION ERRORS");
    lines.push("==================================================");
    for (const error of summary.errors) {
      lines.push(`
\u274C ${error.testId}`);
      lines.push(`   ${error.error}`);
    }
    lines.push("");
  }
  const gradedCount = summary.total - summary.executionErrorCount;
  const threshold = options?.threshold ?? 0.8;
  const thresholdText = options?.thresholdLabel ?? `${Math.round(threshold * 100)}%`;
  const allExecutionErrors = summary.total > 0 && summary.executionErrorCount === summary.total;
  const overallPassed = !allExecutionErrors && (summary.passedCount === gradedCount || summary.qualityFailureCount === 0 && summary.executionErrorCount === 0);
  const useColor = !(process.env.NO_COLOR !== void 0) && (process.stdout.isTTY ?? false);
  let overallVerdict;
  let verdictColor;
  let verdictText;
  if (allExecutionErrors) {
    overallVerdict = "ERROR";
    verdictColor = "\x1B[33m";
    verdictText = `RESULT: ERROR  (all ${summary.total} test(s) had execution errors \u2014 no evaluation was performed)`;
  } else {
    overallVerdict = overallPassed ? "PASS" : "FAIL";
    verdictColor = overallPassed ? "\x1B[32m" : "\x1B[31m";
    verdictText = `RESULT: ${overallVerdict}  (${summary.passedCount}/${summary.total} scored >= ${thresholdText}, mean: ${formatScore2(summary.mean)})`;
  }
  lines.push("\n==================================================");
  if (useColor) {
    lines.push(`\x1B[1m${verdictColor}${verdictText}\x1B[0m`);
  } else {
    lines.push(verdictText);
  }
  lines.push("==================================================");
  lines.push("");
  lines.push("EVALUATION SUMMARY");
  lines.push("==================================================");
  lines.push(`Total tests: ${summary.total}`);
  lines.push(`Passed: ${summary.passedCount}`);
  if (summary.qualityFailureCount > 0) {
    lines.push(`Quality failures: ${summary.qualityFailureCount}`);
  }
  if (summary.executionErrorCount > 0) {
    lines.push(`Execution errors: ${summary.executionErrorCount}`);
  }
  if (summary.executionErrorCount > 0) {
    const qualityCount = summary.total - summary.executionErrorCount;
    lines.push(
      `Mean score: ${formatScore2(summary.mean)} (${qualityCount} quality tests, ${summary.executionErrorCount} execution errors excluded)`
    );
  } else {
    lines.push(`Mean score: ${formatScore2(summary.mean)}`);
  }
  lines.push(`Median score: ${formatScore2(summary.median)}`);
  lines.push(`Min score: ${formatScore2(summary.min)}`);
  lines.push(`Max score: ${formatScore2(summary.max)}`);
  if (typeof summary.standardDeviation === "number") {
    lines.push(`Std deviation: ${formatScore2(summary.standardDeviation)}`);
  }
  lines.push("\nScore distribution:");
  for (const bin of summary.histogram) {
    const [start, end] = bin.range;
    lines.push(`  ${Math.round(start * 100)}%-${Math.round(end * 100)}%: ${bin.count}`);
  }
  lines.push("\nTop performing tests:");
  summary.topResults.forEach((result, index) => {
    lines.push(`  ${index + 1}. ${result.testId}: ${formatScore2(result.score)}`);
  });
  lines.push("\nLowest performing tests:");
  summary.bottomResults.forEach((result, index) => {
    lines.push(`  ${index + 1}. ${result.testId}: ${formatScore2(result.score)}`);
  });
  const failureStageEntries = Object.entries(summary.byFailureStage);
  if (failureStageEntries.length > 0) {
    lines.push("\nExecution errors by stage:");
    for (const [stage, count] of failureStageEntries) {
      lines.push(`  ${stage}: ${count}`);
    }
  }
  const failureReasonEntries = Object.entries(summary.byFailureReason);
  if (failureReasonEntries.length > 0) {
    lines.push("\nExecution errors by reason:");
    for (const [reason, count] of failureReasonEntries) {
      lines.push(`  ${reason}: ${count}`);
    }
  }
  const targetErrorEntries = Object.entries(summary.byTargetErrorKind);
  if (targetErrorEntries.length > 0) {
    lines.push("\nTarget runtime errors by kind:");
    for (const [kind, count] of targetErrorEntries) {
      lines.push(`  ${kind}: ${count}`);
    }
  }
  return lines.join("\n");
}
function formatMatrixSummary(results) {
  const targetSet = /* @__PURE__ */ new Set();
  const testIdSet = /* @__PURE__ */ new Set();
  for (const result of results) {
    targetSet.add(result.target);
    testIdSet.add(result.testId);
  }
  const targets = [...targetSet].sort();
  const testIds = [...testIdSet].sort();
  if (targets.length < 2) {
    return "";
  }
  const scoreMap = /* @__PURE__ */ new Map();
  for (const result of results) {
    if (!scoreMap.has(result.testId)) {
      scoreMap.set(result.testId, /* @__PURE__ */ new Map());
    }
    scoreMap.get(result.testId)?.set(result.target, result.score);
  }
  const lines = [];
  lines.push("\n==================================================");
  lines.push("MATRIX RESULTS (tests \xD7 targets)");
  lines.push("==================================================");
  const testIdColWidth = Math.max(7, ...testIds.map((id) => id.length));
  const targetColWidth = Math.max(7, ...targets.map((t) => t.length));
  const header = `${"Test".padEnd(testIdColWidth)}  ${targets.map((t) => t.padEnd(targetColWidth)).join("  ")}`;
  lines.push(header);
  lines.push("-".repeat(header.length));
  for (const testId of testIds) {
    const cells = targets.map((target) => {
      const score = scoreMap.get(testId)?.get(target);
      return score !== void 0 ? formatScore2(score).padEnd(targetColWidth) : "-".padEnd(targetColWidth);
    });
    lines.push(`${testId.padEnd(testIdColWidth)}  ${cells.join("  ")}`);
  }
  lines.push("-".repeat(header.length));
  const avgCells = targets.map((target) => {
    const scores = results.filter((r) => r.target === target).map((r) => r.score);
    const avg = scores.length > 0 ? scores.reduce((a, b) => a + b, 0) / scores.length : 0;
    return formatScore2(avg).padEnd(targetColWidth);
  });
  lines.push(`${"Average".padEnd(testIdColWidth)}  ${avgCells.join("  ")}`);
  return lines.join("\n");
}

// ../../packages/core/dist/evaluation/validation/index.js
import { readFile as readFile2 } from "node:fs/promises";
import path11 from "node:path";
import { readFile as readFile22, readdir, realpath, stat as stat2 } from "node:fs/promises";
import path22 from "node:path";
import fg3 from "fast-glob";
import { readFile as readFile3 } from "node:fs/promises";
import path32 from "node:path";
import { readFile as readFile4 } from "node:fs/promises";
import path42 from "node:path";
import { readFile as readFile5 } from "node:fs/promises";
import path52 from "node:path";
import { readFile as readFile6 } from "node:fs/promises";
import path62 from "node:path";
import { access as access4, readFile as readFile7 } from "node:fs/promises";
import path72 from "node:path";
var SCHEMA_EVAL_V2 = "agentv-eval-v2";
var SCHEMA_TARGETS_V2 = "agentv-targets-v2.2";
var SCHEMA_CONFIG_V2 = "agentv-config-v2";
async function detectFileType(filePath) {
  try {
    const content = await readFile2(filePath, "utf8");
    const parsed = parseYamlValue(content);
    if (Array.isArray(parsed)) {
      return "cases";
    }
    if (typeof parsed !== "object" || parsed === null) {
      return inferFileTypeFromPath(filePath);
    }
    const record = parsed;
    const schema = record.$schema;
    if (typeof schema !== "string") {
      return inferFileTypeFromPath(filePath);
    }
    switch (schema) {
      case SCHEMA_EVAL_V2:
        return "eval";
      case SCHEMA_TARGETS_V2:
        return "targets";
      case SCHEMA_CONFIG_V2:
        return "config";
      default:
        return inferFileTypeFromPath(filePath);
    }
  } catch {
    return inferFileTypeFromPath(filePath);
  }
}
function inferFileTypeFromPath(filePath) {
  const normalized = path11.normalize(filePath).replace(/\\/g, "/");
  const basename = path11.basename(filePath);
  if (basename === AGENTV_LOCAL_CONFIG_FILE_NAME || basename === AGENTV_LOCAL_CONFIG_YML_FILE_NAME) {
    return "config";
  }
  if (normalized.includes("/.agentv/")) {
    if (isAgentVConfigFileName(basename)) {
      return "config";
    }
    if (basename === "targets.yaml" || basename === "targets.yml") {
      return "targets";
    }
  }
  const lower = basename.toLowerCase();
  if (lower === "suite.yaml" || lower === "suite.yml" || lower.endsWith(".eval.yaml") || lower.endsWith(".eval.yml")) {
    return "eval";
  }
  return "unknown";
}
var ASSERTION_TYPES_WITH_STRING_VALUE = /* @__PURE__ */ new Set([
  "contains",
  "icontains",
  "starts-with",
  "ends-with",
  "equals",
  "regex"
]);
var ASSERTION_TYPES_WITH_ARRAY_VALUE = /* @__PURE__ */ new Set([
  "contains-any",
  "contains-all",
  "icontains-any",
  "icontains-all"
]);
var PROMPTFOO_ASSERTION_TYPES = /* @__PURE__ */ new Set([
  "assert-set",
  "llm-rubric",
  "javascript",
  "python",
  "webhook",
  "similar",
  "select-best",
  "human"
]);
var REMOVED_ASSERTION_TYPE_REPLACEMENTS = /* @__PURE__ */ new Map([
  ["composite", "assert-set"],
  ["g-eval", "llm-rubric"],
  ["rubrics", "llm-rubric with value"],
  ["rubric", "llm-rubric with value"],
  ["script-grader", "script"],
  ["code-judge", "script"],
  ["llm-judge", "llm-grader"]
]);
var UNSUPPORTED_PROMPTFOO_ASSERTION_TYPES = /* @__PURE__ */ new Set([
  "agent-rubric",
  "answer-relevance",
  "bleu",
  "classifier",
  "contains-html",
  "contains-json",
  "contains-sql",
  "contains-xml",
  "context-faithfulness",
  "context-recall",
  "context-relevance",
  "conversation-relevance",
  "factuality",
  "finish-reason",
  "gleu",
  "guardrails",
  "is-html",
  "is-refusal",
  "is-sql",
  "is-valid-function-call",
  "is-valid-openai-function-call",
  "is-valid-openai-tools-call",
  "is-xml",
  "levenshtein",
  "meteor",
  "model-graded-closedqa",
  "model-graded-factuality",
  "moderation",
  "perplexity",
  "perplexity-score",
  "pi",
  "rouge-n",
  "ruby",
  "similar:cosine",
  "similar:dot",
  "similar:euclidean",
  "select-best",
  "human",
  "max-score",
  "tool-call-f1",
  "trace-error-spans",
  "trace-span-count",
  "trace-span-duration",
  "search-rubric",
  "word-count"
]);
function formatJsonValue(value) {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
function hasToolTrajectoryLatencyCheck(value) {
  const expected = value.expected;
  return Array.isArray(expected) && expected.some(
    (item) => isObject(item) && (item.max_duration_ms !== void 0 || item.maxDurationMs !== void 0)
  );
}
function staleSkillTriggerMessage(value) {
  const skill = typeof value.skill === "string" && value.skill.trim() ? value.skill.trim() : "";
  const shouldTrigger = value.should_trigger !== false;
  if (!skill) {
    return "Authored assertion type 'skill-trigger' has been removed. Use 'skill-used' with value: <skill> for expected skill use, or 'not-skill-used' with value: <skill> when the skill must not be used.";
  }
  const replacementType = shouldTrigger ? "skill-used" : "not-skill-used";
  return `Authored assertion type 'skill-trigger' has been removed. Replace skill: ${skill} with type: ${replacementType}, value: ${skill}.`;
}
function staleToolTrajectoryMessage(value) {
  const mode = typeof value.mode === "string" ? value.mode : void 0;
  if (hasToolTrajectoryLatencyCheck(value)) {
    return "Authored assertion type 'tool-trajectory' has been removed. Per-tool latency checks such as max_duration_ms have no Promptfoo trajectory:* equivalent in AgentV yet; use a custom script assertion or track this as unsupported future scope.";
  }
  if (mode === "any_order" && isObject(value.minimums)) {
    const [toolName, min] = Object.entries(value.minimums)[0] ?? [];
    const example = typeof toolName === "string" ? ` For example: type: trajectory:tool-used, value: { name: ${toolName}, min: ${formatJsonValue(min)} }.` : "";
    return `Authored assertion type 'tool-trajectory' has been removed. Replace mode: any_order minimums with one Promptfoo trajectory:tool-used assertion per tool.${example}`;
  }
  if ((mode === "in_order" || mode === "exact") && Array.isArray(value.expected)) {
    const steps = value.expected.filter(isObject).map((item) => item.tool).filter((tool) => typeof tool === "string");
    const hasArgs = value.expected.some(
      (item) => isObject(item) && item.args !== void 0 && item.args !== "any"
    );
    const sequenceHint = steps.length > 0 ? ` Use type: trajectory:tool-sequence, value: { mode: ${mode}, steps: ${formatJsonValue(steps)} }.` : " Use type: trajectory:tool-sequence with value: { mode, steps }.";
    const argsHint = hasArgs ? " Move expected args checks to trajectory:tool-args-match with Promptfoo mode: partial or exact." : "";
    return `Authored assertion type 'tool-trajectory' has been removed.${sequenceHint}${argsHint}`;
  }
  return "Authored assertion type 'tool-trajectory' has been removed. Use Promptfoo trajectory:* assertions: trajectory:tool-used for tool presence/counts, trajectory:tool-sequence for in_order/exact steps, and trajectory:tool-args-match for argument checks. AgentV-specific latency checks are unsupported future scope.";
}
function staleAuthoredAssertionMessage(value) {
  if (typeof value.type !== "string") return void 0;
  const type = value.type.replace(/_/g, "-");
  if (type === "skill-trigger") return staleSkillTriggerMessage(value);
  if (type === "tool-trajectory") return staleToolTrajectoryMessage(value);
  return void 0;
}
var VALID_TEST_FILE_EXTENSIONS = /* @__PURE__ */ new Set([
  ".csv",
  ".cjs",
  ".js",
  ".json",
  ".jsonl",
  ".mjs",
  ".py",
  ".yaml",
  ".yml"
]);
var KNOWN_TOP_LEVEL_FIELDS = /* @__PURE__ */ new Set([
  "$schema",
  "name",
  "description",
  "category",
  "version",
  "author",
  "tags",
  "license",
  "requires",
  "expected_output",
  "input",
  "input_files",
  "prompts",
  "tests",
  "graders",
  "defaults",
  "environment",
  "target",
  "targets",
  "model",
  "policy",
  "experiment",
  "execution",
  "repeat",
  "runs",
  "early_exit",
  "timeout_seconds",
  "evaluate_options",
  "threshold",
  "default_test",
  "assert",
  "scenarios",
  "derived_metrics",
  "output_path",
  "env",
  "nunjucks_filters",
  "extensions",
  "on_run_complete",
  "workspace",
  "metadata",
  "governance"
]);
var KNOWN_INCLUDE_FIELDS = /* @__PURE__ */ new Set(["include", "type", "select", "run"]);
var KNOWN_RUN_OVERRIDE_FIELDS = /* @__PURE__ */ new Set(["threshold", "repeat", "timeout_seconds", "budget_usd"]);
var KNOWN_DEFAULT_TEST_FIELDS = /* @__PURE__ */ new Set([
  "vars",
  "provider",
  "providers",
  "prompts",
  "provider_output",
  "assert",
  "assert_scoring_function",
  "options",
  "threshold",
  "metadata"
]);
var KNOWN_EVALUATE_OPTION_FIELDS = /* @__PURE__ */ new Set([
  "budget_usd",
  "max_concurrency",
  "cache",
  "delay",
  "generate_suggestions",
  "repeat",
  "timeout_ms",
  "max_eval_time_ms",
  "filter_range"
]);
var KNOWN_REPEAT_FIELDS = /* @__PURE__ */ new Set(["count", "strategy", "early_exit", "cost_limit_usd"]);
var KNOWN_REPEAT_STRATEGIES = /* @__PURE__ */ new Set(["pass_any", "pass_all", "mean", "confidence_interval"]);
var KNOWN_TEST_EXECUTION_FIELDS = /* @__PURE__ */ new Set([
  "assert",
  "skip_defaults",
  "cache",
  "trials",
  "budget_usd",
  "budgetUsd",
  "fail_on_error",
  "failOnError",
  "threshold",
  "workspace"
]);
var REMOVED_TOP_LEVEL_FIELDS = /* @__PURE__ */ new Map([
  [
    "imports",
    "Top-level 'imports' is not supported. Run eval files directly with CLI multi-file selection and tags for grouping. For raw case files, use tests: file://... or string entries under tests. For reusable config, use prompts: file://..., default_test: file://..., and environment: file://... for coding-agent testbeds."
  ],
  [
    "expected_output",
    "Top-level 'expected_output' has been removed from authored eval YAML. Put reference answers in default_test.vars.expected_output or tests[].vars.expected_output and consume them with an explicit assertion such as { type: 'llm-rubric', value: 'Matches the reference answer: {{ expected_output }}' }."
  ],
  [
    "input",
    "Top-level 'input' has been removed from authored eval YAML. Author prompt text or chat messages in top-level 'prompts' and put shared data in default_test.vars or per-row data in tests[].vars."
  ],
  [
    "workers",
    "'workers' has been removed from eval YAML. Set authored eval concurrency with evaluate_options.max_concurrency."
  ],
  ["model", "Top-level 'model' is not part of eval YAML. Put model inside the target object."],
  [
    "policy",
    "Top-level 'policy' is not part of eval YAML. Put repeat under evaluate_options.repeat, timeout_seconds and threshold at the top level, and budget_usd under evaluate_options."
  ],
  [
    "providers",
    "Top-level 'providers' is not a runtime alias in AgentV eval YAML. Use 'targets' for systems under test; provider names backend kind inside each target."
  ],
  [
    "eval_cases",
    "Top-level 'eval_cases' has been removed from authored eval YAML. Use 'tests' instead."
  ],
  [
    "evalcases",
    "Top-level 'evalcases' has been removed from authored eval YAML. Use 'tests' instead."
  ],
  ["repeat", "Top-level 'repeat' has been removed. Use evaluate_options.repeat instead."],
  ["runs", "Top-level 'runs' has been removed. Use evaluate_options.repeat.count instead."],
  [
    "early_exit",
    "Top-level 'early_exit' has been removed. Use evaluate_options.repeat.early_exit instead."
  ],
  ["budget_usd", "Top-level 'budget_usd' has been removed. Use evaluate_options.budget_usd."],
  [
    "on_run_complete",
    "Top-level 'on_run_complete' has been removed. Use extensions with an afterAll hook instead."
  ],
  [
    "preprocessors",
    "Top-level 'preprocessors' has been removed from authored eval YAML. Use default_test.options.transform or assertion-level transform instead."
  ],
  ["providerPromptMap", "Top-level 'providerPromptMap' is not supported. Use 'targets'."],
  ["provider_prompt_map", "Top-level 'provider_prompt_map' is not supported. Use 'targets'."]
]);
var DEPRECATED_TOP_LEVEL_FIELDS = /* @__PURE__ */ new Map([
  ["evaluator", "'evaluator' is deprecated. Use 'assert' instead."]
]);
var KNOWN_TEST_FIELDS = /* @__PURE__ */ new Set([
  "id",
  "description",
  "vars",
  "criteria",
  "provider",
  "providers",
  "prompts",
  "provider_output",
  "input",
  "input_files",
  "assert",
  "assert_scoring_function",
  "options",
  "threshold",
  "execution",
  "run",
  "environment",
  "workspace",
  "metadata",
  "conversation_id",
  "suite",
  "depends_on",
  "on_dependency_failure",
  "mode",
  "turns",
  "aggregation",
  "on_turn_failure",
  "window_size"
]);
var KNOWN_SCENARIO_FIELDS = /* @__PURE__ */ new Set(["description", "config", "tests"]);
var SUPPORTED_WORKSPACE_REPO_FIELDS = /* @__PURE__ */ new Set(["path", "repo", "commit", "ancestor", "sparse"]);
var KNOWN_REMOVED_WORKSPACE_FIELDS = /* @__PURE__ */ new Set([
  "template",
  "repos",
  "scope",
  "docker",
  "hooks",
  "env",
  "mode",
  "isolation",
  "path"
]);
var REMOVED_TEST_FIELDS = /* @__PURE__ */ new Map([]);
REMOVED_TEST_FIELDS.set(
  "input",
  "tests[].input has been removed from authored eval YAML. Put prompt text or chat/system/user messages in top-level 'prompts' and put row-specific data in tests[].vars."
);
REMOVED_TEST_FIELDS.set(
  "preprocessors",
  "tests[].preprocessors has been removed from authored eval YAML. Use tests[].options.transform or assertion-level transform instead."
);
REMOVED_TEST_FIELDS.set(
  "postprocess",
  "tests[].postprocess has been removed from authored eval YAML. Use tests[].options.transform instead."
);
REMOVED_TEST_FIELDS.set(
  "eval_cases",
  "tests[].eval_cases has been removed from authored eval YAML. Use 'tests' rows directly."
);
REMOVED_TEST_FIELDS.set(
  "evalcases",
  "tests[].evalcases has been removed from authored eval YAML. Use 'tests' rows directly."
);
var DEPRECATED_TEST_FIELDS = /* @__PURE__ */ new Map([
  ["evaluator", "'evaluator' is deprecated. Use 'assert' instead."],
  ["expected_outcome", "'expected_outcome' is deprecated. Use 'assert' instead."]
]);
var NAME_PATTERN = /^[a-z0-9-]+$/;
var ASSERTION_SCRIPT_EXTENSIONS = /* @__PURE__ */ new Set([".ts", ".js", ".mts", ".mjs", ".cts", ".cjs"]);
var customAssertionCache = /* @__PURE__ */ new Map();
function discoverCustomAssertionTypes(baseDir) {
  const resolved = path22.resolve(baseDir);
  const cached = customAssertionCache.get(resolved);
  if (cached) return cached;
  const promise = (async () => {
    const types = /* @__PURE__ */ new Set();
    let dir = resolved;
    const root = path22.parse(dir).root;
    while (dir !== root) {
      const assertionsDir = path22.join(dir, ".agentv", "assertions");
      try {
        const entries = await readdir(assertionsDir, { withFileTypes: true });
        for (const entry of entries) {
          if (!entry.isFile()) continue;
          const ext = path22.extname(entry.name).toLowerCase();
          if (!ASSERTION_SCRIPT_EXTENSIONS.has(ext)) continue;
          types.add(entry.name.slice(0, -ext.length));
        }
      } catch {
      }
      dir = path22.dirname(dir);
    }
    return types;
  })();
  customAssertionCache.set(resolved, promise);
  return promise;
}
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function isIncludeEntry(value) {
  return typeof value.include === "string" && value.include.trim().length > 0;
}
async function canonicalEvalFileIdentity(filePath) {
  const absolutePath = path22.resolve(filePath);
  return realpath(absolutePath).catch(() => absolutePath);
}
function displayEvalImportPath(filePath) {
  const relativePath = path22.relative(process.cwd(), filePath);
  return relativePath && !relativePath.startsWith("..") && !path22.isAbsolute(relativePath) ? relativePath : filePath;
}
function formatCircularImportChain(stack, repeated) {
  const start = stack.findIndex((entry) => entry.identity === repeated.identity);
  const cycle = [...start >= 0 ? stack.slice(start) : stack, repeated];
  return cycle.map((entry) => entry.displayPath).join(" -> ");
}
async function validateEvalFile(filePath) {
  const errors = [];
  const absolutePath = path22.resolve(filePath);
  const customAssertionTypes = await discoverCustomAssertionTypes(path22.dirname(absolutePath));
  let parsed;
  try {
    const content = await readFile22(absolutePath, "utf8");
    parsed = interpolateEnv(parseYamlValue(content), process.env);
  } catch (error) {
    errors.push({
      severity: "error",
      filePath: absolutePath,
      message: `Failed to parse YAML: ${error.message}`
    });
    return {
      valid: false,
      filePath: absolutePath,
      fileType: "eval",
      errors
    };
  }
  if (!isObject(parsed)) {
    errors.push({
      severity: "error",
      filePath: absolutePath,
      message: "File must contain a YAML object"
    });
    return {
      valid: false,
      filePath: absolutePath,
      fileType: "eval",
      errors
    };
  }
  validateMetadata(parsed, absolutePath, errors);
  if (parsed.experiment !== void 0 && typeof parsed.experiment !== "string") {
    errors.push({
      severity: "error",
      filePath: absolutePath,
      location: "experiment",
      message: "Top-level 'experiment' must be a string run/result grouping label."
    });
  }
  for (const key of Object.keys(parsed)) {
    const removedMessage = REMOVED_TOP_LEVEL_FIELDS.get(key);
    if (removedMessage) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: key,
        message: removedMessage
      });
      continue;
    }
    const deprecationMessage = DEPRECATED_TOP_LEVEL_FIELDS.get(key);
    if (deprecationMessage) {
      errors.push({
        severity: "warning",
        filePath: absolutePath,
        location: key,
        message: deprecationMessage
      });
    } else if (!KNOWN_TOP_LEVEL_FIELDS.has(key)) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: key,
        message: `Unknown top-level field '${key}'.`
      });
    }
  }
  await validateEnvironmentConfig(parsed.environment, absolutePath, errors, "environment");
  await validateSuiteWorkspaceConfigs(parsed, absolutePath, errors);
  validateTargetTestbedFields(parsed.target, "target", absolutePath, errors);
  validateTargetsTestbedFields(parsed.targets, "targets", absolutePath, errors);
  validateAuthoredWorkers(parsed, absolutePath, errors);
  validateExecutionPolicy(parsed.execution, "execution", absolutePath, errors);
  validateEvaluateOptions(parsed.evaluate_options, "evaluate_options", absolutePath, errors);
  validateAssertArray(parsed.assert, "assert", absolutePath, errors, customAssertionTypes);
  validateDefaultTest(parsed.default_test, absolutePath, errors, customAssertionTypes);
  await validateScenarios(parsed.scenarios, parsed, absolutePath, errors, customAssertionTypes);
  const cases = parsed.tests;
  const hasImports = collectImportEntries(parsed).length > 0;
  const hasScenarios = Array.isArray(parsed.scenarios);
  if (typeof cases === "string") {
    await validateRawCaseImportPath(cases, absolutePath, "tests", errors);
    await validateCompositionDiagnostics(absolutePath, parsed, errors);
    await validateSuiteImportCycles(absolutePath, parsed, errors);
    return {
      valid: errors.filter((e) => e.severity === "error").length === 0,
      filePath: absolutePath,
      fileType: "eval",
      errors
    };
  }
  if (cases === void 0 && (hasImports || hasScenarios)) {
    await validateCompositionDiagnostics(absolutePath, parsed, errors);
    await validateSuiteImportCycles(absolutePath, parsed, errors);
    return {
      valid: errors.filter((e) => e.severity === "error").length === 0,
      filePath: absolutePath,
      fileType: "eval",
      errors
    };
  }
  if (!Array.isArray(cases)) {
    errors.push({
      severity: "error",
      filePath: absolutePath,
      location: "tests",
      message: "Missing or invalid 'tests' field (must be an array or a file path string, unless scenarios are provided)"
    });
    return {
      valid: errors.length === 0,
      filePath: absolutePath,
      fileType: "eval",
      errors
    };
  }
  for (let i = 0; i < cases.length; i++) {
    const evalCase = cases[i];
    const location = `tests[${i}]`;
    if (typeof evalCase === "string") {
      await validateRawCaseImportPath(evalCase, absolutePath, location, errors);
      continue;
    }
    if (!isObject(evalCase)) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location,
        message: "Eval case must be an object"
      });
      continue;
    }
    if (isIncludeEntry(evalCase)) {
      validateIncludeEntry(evalCase, location, absolutePath, errors);
      continue;
    }
    for (const key of Object.keys(evalCase)) {
      const removedMessage = REMOVED_TEST_FIELDS.get(key);
      if (removedMessage) {
        errors.push({
          severity: "error",
          filePath: absolutePath,
          location: `${location}.${key}`,
          message: removedMessage
        });
        continue;
      }
      const deprecationMessage = DEPRECATED_TEST_FIELDS.get(key);
      if (deprecationMessage) {
        errors.push({
          severity: "warning",
          filePath: absolutePath,
          location: `${location}.${key}`,
          message: deprecationMessage
        });
      } else if (!KNOWN_TEST_FIELDS.has(key)) {
        errors.push({
          severity: "error",
          filePath: absolutePath,
          location: `${location}.${key}`,
          message: `Unknown test field '${key}'.`
        });
      }
    }
    const id = evalCase.id;
    if (id !== void 0 && (typeof id !== "string" || id.trim().length === 0)) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.id`,
        message: "Invalid 'id' field (must be a non-empty string when provided)"
      });
    }
    const criteria = evalCase.criteria;
    if (criteria !== void 0 && (typeof criteria !== "string" || criteria.trim().length === 0)) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.criteria`,
        message: "Invalid 'criteria' field (must be a non-empty string if provided)"
      });
    } else if (criteria !== void 0 && evalCase.assert !== void 0) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.criteria`,
        message: "Do not combine test-level 'criteria' with 'assert'. Put human-readable case descriptions in tests[].description, or express grading text as an explicit assertion such as { type: 'llm-rubric', value: ... }."
      });
    }
    const caseExecution = isObject(evalCase.execution) ? evalCase.execution : void 0;
    if (caseExecution) {
      validateTestExecutionFields(caseExecution, absolutePath, errors, location);
      rejectRuntimeWorkspaceConfig(
        caseExecution.workspace,
        absolutePath,
        errors,
        `${location}.execution.workspace`
      );
    }
    const skipDefaults = caseExecution?.skip_defaults === true;
    const hasPromptMdFallback = evalCase.input === void 0 ? await loadPromptMdFallback({
      evalFilePath: absolutePath,
      searchRoots: buildSearchRoots2(absolutePath, process.cwd()),
      testInputFiles: evalCase.input_files,
      suiteInputFiles: skipDefaults ? void 0 : parsed.input_files
    }) !== void 0 : false;
    validateInputField(evalCase.input, `${location}.input`, absolutePath, errors, {
      required: !hasPromptMdFallback && evalCase.prompts === void 0 && parsed.prompts === void 0 && evalCase.provider_output === void 0
    });
    const expectedOutputField = evalCase.expected_output;
    if (expectedOutputField !== void 0) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.expected_output`,
        message: "tests[].expected_output has been removed from authored eval YAML. Put the reference answer in tests[].vars.expected_output and consume it with an explicit assertion, for example { type: 'llm-rubric', value: 'Matches the reference answer: {{ expected_output }}' }."
      });
    }
    validateAssertArray(
      evalCase.assert,
      `${location}.assert`,
      absolutePath,
      errors,
      customAssertionTypes
    );
    validateRunOverride(evalCase.run, `${location}.run`, absolutePath, errors);
    validateTestOptions(evalCase.options, `${location}.options`, absolutePath, errors);
    await validateEnvironmentConfig(
      evalCase.environment,
      absolutePath,
      errors,
      `${location}.environment`
    );
    validateConversationMode(evalCase, location, absolutePath, errors);
    await validateWorkspaceConfig(
      evalCase.workspace,
      absolutePath,
      errors,
      `${location}.workspace`
    );
  }
  await validateCompositionDiagnostics(absolutePath, parsed, errors);
  await validateSuiteImportCycles(absolutePath, parsed, errors);
  return {
    valid: errors.filter((e) => e.severity === "error").length === 0,
    filePath: absolutePath,
    fileType: "eval",
    errors
  };
}
async function validateTypeScriptEvalConfigFile(filePath) {
  const absolutePath = path22.resolve(filePath);
  try {
    const { loadTsEvalSuite } = await import("./ts-eval-loader-2RFVZHCT-7CZ3DCDD.js");
    await loadTsEvalSuite(absolutePath, process.cwd());
    return {
      valid: true,
      filePath: absolutePath,
      fileType: "eval",
      errors: []
    };
  } catch (error) {
    return {
      valid: false,
      filePath: absolutePath,
      fileType: "eval",
      errors: [
        {
          severity: "error",
          filePath: absolutePath,
          message: error.message
        }
      ]
    };
  }
}
async function validateSuiteWorkspaceConfigs(parsed, absolutePath, errors) {
  await validateWorkspaceConfig(parsed.workspace, absolutePath, errors, "workspace");
  if (isObject(parsed.execution)) {
    rejectRuntimeWorkspaceConfig(
      parsed.execution.workspace,
      absolutePath,
      errors,
      "execution.workspace"
    );
  }
}
async function validateEnvironmentConfig(environment, evalFilePath, errors, location) {
  if (environment === void 0) {
    return;
  }
  try {
    await resolveEnvironmentRecipe(environment, path22.dirname(evalFilePath), location);
  } catch (error) {
    errors.push({
      severity: "error",
      filePath: evalFilePath,
      location,
      message: error.message
    });
  }
}
function validateTargetTestbedFields(target, location, filePath, errors) {
  if (!isObject(target)) {
    return;
  }
  for (const field of ["environment", "container", "install"]) {
    if (target[field] === void 0) {
      continue;
    }
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.${field}`,
      message: field === "environment" ? "Target definitions cannot include environment; author environment at suite/test/case scope." : `Target definitions cannot include ${field}; use an environment recipe for testbed setup.`
    });
  }
}
function validateTargetsTestbedFields(targets, location, filePath, errors) {
  const entries = Array.isArray(targets) ? targets : targets === void 0 ? [] : [targets];
  entries.forEach((entry, index) => {
    validateTargetTestbedFields(entry, `${location}[${index}]`, filePath, errors);
  });
}
function validateTestExecutionFields(caseExecution, filePath, errors, location) {
  for (const key of Object.keys(caseExecution)) {
    if (key === "workers") {
      errors.push({
        severity: "error",
        filePath,
        location: `${location}.execution.workers`,
        message: "tests[].execution.workers has been removed from eval YAML. Set authored eval concurrency with evaluate_options.max_concurrency."
      });
      continue;
    }
    if (!KNOWN_TEST_EXECUTION_FIELDS.has(key)) {
      errors.push({
        severity: "error",
        filePath,
        location: `${location}.execution.${key}`,
        message: `Unsupported test execution field '${key}'.`
      });
    }
  }
}
function validateAuthoredWorkers(parsed, filePath, errors) {
  rejectWorkersField(parsed.execution, "execution", filePath, errors);
  rejectWorkersField(parsed.experiment, "experiment", filePath, errors);
  if (Array.isArray(parsed.tests)) {
    parsed.tests.forEach((entry, index) => {
      if (!isObject(entry)) {
        return;
      }
      rejectWorkersField(entry.execution, `tests[${index}].execution`, filePath, errors);
    });
  }
}
function validateExecutionPolicy(execution, location, filePath, errors) {
  if (execution === void 0) {
    return;
  }
  if (!isObject(execution)) {
    errors.push({
      severity: "error",
      filePath,
      location,
      message: "Invalid 'execution' field (must be an object)"
    });
    return;
  }
  const keys = Object.keys(execution);
  if (keys.length === 0) {
    errors.push({
      severity: "error",
      filePath,
      location,
      message: "Top-level 'execution' is not part of eval YAML. Use supported top-level fields or evaluate_options for authored run controls."
    });
    return;
  }
  for (const key of keys) {
    if (key === "max_concurrency") {
      errors.push({
        severity: "error",
        filePath,
        location: `${location}.${key}`,
        message: "Top-level 'execution.max_concurrency' has been removed from eval YAML. Use evaluate_options.max_concurrency for authored suite concurrency."
      });
      continue;
    }
    if (key === "workers") {
      errors.push({
        severity: "error",
        filePath,
        location: `${location}.${key}`,
        message: "Top-level 'execution.workers' has been removed from eval YAML. Use evaluate_options.max_concurrency for authored suite concurrency."
      });
      continue;
    }
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.${key}`,
      message: `Unsupported execution field '${key}'. Use supported top-level fields or evaluate_options for authored run controls.`
    });
  }
}
function rejectWorkersField(raw, location, filePath, errors) {
  if (!isObject(raw)) {
    return;
  }
  if (raw.workers !== void 0) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.workers`,
      message: `${location}.workers has been removed from eval YAML. Set authored eval concurrency with evaluate_options.max_concurrency.`
    });
  }
  rejectTargetWorkers(raw.targets, `${location}.targets`, filePath, errors);
}
function rejectTargetWorkers(rawTargets, location, filePath, errors) {
  if (!Array.isArray(rawTargets)) {
    return;
  }
  rawTargets.forEach((target, index) => {
    if (!isObject(target) || target.workers === void 0) {
      return;
    }
    errors.push({
      severity: "error",
      filePath,
      location: `${location}[${index}].workers`,
      message: `${location}[${index}].workers has been removed from eval YAML. Set authored eval concurrency with evaluate_options.max_concurrency.`
    });
  });
}
function rejectRuntimeWorkspaceConfig(workspace, filePath, errors, location) {
  if (workspace === void 0) {
    return;
  }
  errors.push({
    severity: "error",
    filePath,
    location,
    message: `${location} has been removed from eval YAML. Put machine-local workspace_path in .agentv/config.local.yaml under execution, or pass --workspace-path. Keep portable coding-agent testbed setup in environment.`
  });
}
function collectImportEntries(parsed) {
  const entries = [];
  const tests = parsed.tests;
  if (Array.isArray(tests)) {
    for (let i = 0; i < tests.length; i++) {
      const entry = tests[i];
      if (!isObject(entry) || !isIncludeEntry(entry)) {
        continue;
      }
      if (entry.type !== "suite" && entry.type !== "tests") {
        continue;
      }
      entries.push({
        path: entry.include.trim(),
        type: entry.type,
        location: `tests[${i}].include`,
        select: entry.select,
        run: entry.run,
        legacy: true
      });
    }
  }
  return entries;
}
async function validateCompositionDiagnostics(filePath, parsed, errors) {
  const includeEntries = collectImportEntries(parsed);
  if (includeEntries.length === 0) {
    return;
  }
  const parentHasRuntime = hasWrapperRuntimeControls(parsed);
  const hasSuiteImport = includeEntries.some((entry) => entry.type === "suite");
  if (hasSuiteImport) {
    for (const location of parentWorkspaceLocations(parsed)) {
      errors.push({
        severity: "error",
        filePath,
        location,
        message: location === "environment" ? "Parent environment is not allowed with legacy tests[].include suite entries. Run eval files directly, or use tests: file://... for raw cases that should use the parent environment." : "Parent workspace is not allowed with legacy tests[].include suite entries. Run eval files directly, or use tests: file://... for raw cases that should use the parent workspace."
      });
    }
  }
  for (const entry of includeEntries) {
    const resolvedSuites = await resolveSuiteIncludePaths(entry.path, path22.dirname(filePath));
    if (entry.type === "suite") {
      for (const resolvedSuite of resolvedSuites) {
        const childParsed = await readImportedSuite(resolvedSuite.filePath);
        if (!childParsed) {
          continue;
        }
        const runtimeFields = childRuntimeControlFields(childParsed);
        if (runtimeFields.length === 0) {
          continue;
        }
        errors.push({
          severity: "warning",
          filePath,
          location: entry.location,
          message: parentHasRuntime ? `Imported suite '${resolvedSuite.displayPath}' defines ${runtimeFields.join(", ")}, but child target and run controls are ignored by legacy tests[].include suite imports. Prefer running eval files directly with CLI multi-file selection and tags.` : `Imported suite '${resolvedSuite.displayPath}' defines ${runtimeFields.join(", ")}, but child target and run controls are ignored by legacy tests[].include suite imports. Prefer running eval files directly with CLI multi-file selection and tags.`
        });
      }
      continue;
    }
    if (entry.type === "tests") {
      for (const resolvedSuite of resolvedSuites) {
        if (!/\.eval\.ya?ml$/i.test(resolvedSuite.filePath)) {
          continue;
        }
        errors.push({
          severity: "warning",
          filePath,
          location: entry.location,
          message: `Legacy tests[].include with type: tests imports raw cases from eval suite '${resolvedSuite.displayPath}' and drops suite context, including child environment, workspace, input, assertions, metadata, target, and run controls. Prefer tests: file://... for raw case files.`
        });
      }
    }
  }
}
var WRAPPER_RUNTIME_CONTROL_FIELDS = [
  "experiment",
  "target",
  "repeat",
  "timeout_seconds",
  "evaluate_options",
  "threshold",
  "default_test",
  "on_run_complete"
];
function hasWrapperRuntimeControls(parsed) {
  return WRAPPER_RUNTIME_CONTROL_FIELDS.some((field) => parsed[field] !== void 0);
}
function childRuntimeControlFields(parsed) {
  const fields = WRAPPER_RUNTIME_CONTROL_FIELDS.filter(
    (field) => parsed[field] !== void 0
  );
  if (parsed.execution !== void 0) {
    fields.push("execution");
  }
  if (parsed.policy !== void 0) {
    fields.push("policy");
  }
  if (parsed.model !== void 0) {
    fields.push("model");
  }
  return fields;
}
function parentWorkspaceLocations(parsed) {
  const locations = [];
  if (parsed.workspace !== void 0) {
    locations.push("workspace");
  }
  if (parsed.environment !== void 0) {
    locations.push("environment");
  }
  if (isObject(parsed.execution) && parsed.execution.workspace !== void 0) {
    locations.push("execution.workspace");
  }
  return locations;
}
async function readImportedSuite(filePath) {
  try {
    const parsed = interpolateEnv(parseYamlValue(await readFile22(filePath, "utf8")), process.env);
    return isObject(parsed) ? parsed : void 0;
  } catch {
    return void 0;
  }
}
function validateIncludeEntry(entry, location, filePath, errors) {
  errors.push({
    severity: "warning",
    filePath,
    location,
    message: entry.type === "suite" ? "tests[].include with type: suite is deprecated. Run eval files directly with CLI multi-file selection and tags instead." : "tests[].include is deprecated. Use tests: file://... or string entries inside tests: for raw case files."
  });
  for (const key of Object.keys(entry)) {
    if (!KNOWN_INCLUDE_FIELDS.has(key)) {
      errors.push({
        severity: "warning",
        filePath,
        location: `${location}.${key}`,
        message: `Unknown field '${key}'. This field will be ignored.`
      });
    }
  }
  if (typeof entry.include !== "string" || entry.include.trim().length === 0) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.include`,
      message: "Invalid 'include' field (must be a non-empty string)"
    });
  }
  if (entry.type === void 0) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.type`,
      message: "Missing 'type' field (must be 'suite' or 'tests')"
    });
  } else if (entry.type !== "suite" && entry.type !== "tests") {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.type`,
      message: "Invalid 'type' field (must be 'suite' or 'tests')"
    });
  }
  validateIncludeSelect(entry.select, `${location}.select`, filePath, errors);
  validateRunOverride(entry.run, `${location}.run`, filePath, errors);
}
function validateRunOverride(run, location, filePath, errors) {
  if (run === void 0) {
    return;
  }
  if (!isObject(run)) {
    errors.push({
      severity: "error",
      filePath,
      location,
      message: "Invalid 'run' override (must be an object)"
    });
    return;
  }
  for (const key of Object.keys(run)) {
    if (!KNOWN_RUN_OVERRIDE_FIELDS.has(key)) {
      errors.push({
        severity: "error",
        filePath,
        location: `${location}.${key}`,
        message: "Invalid run override field. Supported fields: threshold, repeat, timeout_seconds, budget_usd."
      });
    }
  }
  const threshold = run.threshold;
  if (threshold !== void 0 && (typeof threshold !== "number" || threshold < 0 || threshold > 1)) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.threshold`,
      message: "Invalid 'threshold' field (must be a number between 0 and 1)"
    });
  }
  const timeoutSeconds = run.timeout_seconds;
  if (timeoutSeconds !== void 0 && (typeof timeoutSeconds !== "number" || timeoutSeconds <= 0)) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.timeout_seconds`,
      message: "Invalid 'timeout_seconds' field (must be a positive number)"
    });
  }
  const budgetUsd = run.budget_usd;
  if (budgetUsd !== void 0 && (typeof budgetUsd !== "number" || budgetUsd <= 0)) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.budget_usd`,
      message: "Invalid 'budget_usd' field (must be a positive number)"
    });
  }
  validateRepeatOverride(run.repeat, `${location}.repeat`, filePath, errors);
}
function validateTestOptions(options, location, filePath, errors) {
  if (options === void 0) {
    return;
  }
  if (!isObject(options)) {
    errors.push({
      severity: "error",
      filePath,
      location,
      message: "Invalid 'options' field (must be an object)"
    });
    return;
  }
  if (options.postprocess !== void 0) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.postprocess`,
      message: `${location}.postprocess has been removed. Use ${location}.transform instead.`
    });
  }
  validateEvaluateOptionsRepeat(options.repeat, `${location}.repeat`, filePath, errors);
}
function validateDefaultTest(defaultTest, filePath, errors, customAssertionTypes) {
  if (defaultTest === void 0) {
    return;
  }
  if (typeof defaultTest === "string") {
    const trimmed = defaultTest.trim();
    if (trimmed.length === 0 || !trimmed.startsWith("file://") && !trimmed.startsWith("ref://")) {
      errors.push({
        severity: "error",
        filePath,
        location: "default_test",
        message: "Invalid 'default_test' field (must be an object, file:// reference, or ref:// reference)"
      });
    }
    return;
  }
  if (!isObject(defaultTest)) {
    errors.push({
      severity: "error",
      filePath,
      location: "default_test",
      message: "Invalid 'default_test' field (must be an object, file:// reference, or ref:// reference)"
    });
    return;
  }
  for (const key of Object.keys(defaultTest)) {
    if (!KNOWN_DEFAULT_TEST_FIELDS.has(key)) {
      errors.push({
        severity: "error",
        filePath,
        location: `default_test.${key}`,
        message: "Invalid default_test field. Supported fields: vars, provider, providers, prompts, provider_output, assert, assert_scoring_function, options, threshold, metadata."
      });
    }
  }
  if (defaultTest.expected_output !== void 0) {
    errors.push({
      severity: "error",
      filePath,
      location: "default_test.expected_output",
      message: "default_test.expected_output has been removed from authored eval YAML. Put shared reference answers in default_test.vars.expected_output and consume them with an explicit assertion, for example { type: 'llm-rubric', value: 'Matches the reference answer: {{ expected_output }}' }."
    });
  }
  validateAssertArray(
    defaultTest.assert,
    "default_test.assert",
    filePath,
    errors,
    customAssertionTypes
  );
  validateTestOptions(defaultTest.options, "default_test.options", filePath, errors);
  const threshold = defaultTest.threshold;
  if (threshold !== void 0 && (typeof threshold !== "number" || threshold < 0 || threshold > 1)) {
    errors.push({
      severity: "error",
      filePath,
      location: "default_test.threshold",
      message: "Invalid 'default_test.threshold' field (must be a number between 0 and 1)"
    });
  }
  const options = defaultTest.options;
  if (options !== void 0 && !isObject(options)) {
    errors.push({
      severity: "error",
      filePath,
      location: "default_test.options",
      message: "Invalid 'default_test.options' field (must be an object)"
    });
  }
}
async function validateScenarios(scenarios, parsed, filePath, errors, customAssertionTypes) {
  if (scenarios === void 0) {
    return;
  }
  if (!Array.isArray(scenarios)) {
    errors.push({
      severity: "error",
      filePath,
      location: "scenarios",
      message: "Invalid 'scenarios' field (must be an array)"
    });
    return;
  }
  for (let scenarioIndex = 0; scenarioIndex < scenarios.length; scenarioIndex++) {
    const scenario = scenarios[scenarioIndex];
    const scenarioLocation = `scenarios[${scenarioIndex}]`;
    if (!isObject(scenario)) {
      errors.push({
        severity: "error",
        filePath,
        location: scenarioLocation,
        message: "Scenario must be an object"
      });
      continue;
    }
    for (const key of Object.keys(scenario)) {
      if (!KNOWN_SCENARIO_FIELDS.has(key)) {
        errors.push({
          severity: "error",
          filePath,
          location: `${scenarioLocation}.${key}`,
          message: `Unknown scenario field '${key}'.`
        });
      }
    }
    if (!Array.isArray(scenario.config)) {
      errors.push({
        severity: "error",
        filePath,
        location: `${scenarioLocation}.config`,
        message: "Invalid 'config' field (must be an array)"
      });
    } else {
      for (let configIndex = 0; configIndex < scenario.config.length; configIndex++) {
        await validateScenarioTestLikeRow(
          scenario.config[configIndex],
          `${scenarioLocation}.config[${configIndex}]`,
          filePath,
          errors,
          customAssertionTypes,
          { requireInput: false }
        );
      }
    }
    const scenarioConfigs = Array.isArray(scenario.config) ? scenario.config : [];
    if (!Array.isArray(scenario.tests)) {
      errors.push({
        severity: "error",
        filePath,
        location: `${scenarioLocation}.tests`,
        message: "Invalid 'tests' field (must be an array)"
      });
      continue;
    }
    for (let testIndex = 0; testIndex < scenario.tests.length; testIndex++) {
      const test = scenario.tests[testIndex];
      const everyConfigProvidesInput = scenarioConfigs.length > 0 && scenarioConfigs.every(
        (config) => isObject(config) && (config.prompts !== void 0 || config.provider_output !== void 0)
      );
      const requireInput = isObject(test) && parsed.prompts === void 0 && test.prompts === void 0 && test.provider_output === void 0 && !everyConfigProvidesInput;
      await validateScenarioTestLikeRow(
        test,
        `${scenarioLocation}.tests[${testIndex}]`,
        filePath,
        errors,
        customAssertionTypes,
        { requireInput }
      );
    }
  }
}
async function validateScenarioTestLikeRow(row, location, filePath, errors, customAssertionTypes, options) {
  if (!isObject(row)) {
    errors.push({
      severity: "error",
      filePath,
      location,
      message: "Scenario row must be an object"
    });
    return;
  }
  for (const key of Object.keys(row)) {
    const removedMessage = REMOVED_TEST_FIELDS.get(key);
    if (removedMessage) {
      errors.push({
        severity: "error",
        filePath,
        location: `${location}.${key}`,
        message: removedMessage.replaceAll("tests[]", location)
      });
      continue;
    }
    const deprecationMessage = DEPRECATED_TEST_FIELDS.get(key);
    if (deprecationMessage) {
      errors.push({
        severity: "warning",
        filePath,
        location: `${location}.${key}`,
        message: deprecationMessage
      });
    } else if (!KNOWN_TEST_FIELDS.has(key)) {
      errors.push({
        severity: "error",
        filePath,
        location: `${location}.${key}`,
        message: `Unknown test field '${key}'.`
      });
    }
  }
  const id = row.id;
  if (id !== void 0 && (typeof id !== "string" || id.trim().length === 0)) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.id`,
      message: "Invalid 'id' field (must be a non-empty string when provided)"
    });
  }
  const criteria = row.criteria;
  if (criteria !== void 0 && (typeof criteria !== "string" || criteria.trim().length === 0)) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.criteria`,
      message: "Invalid 'criteria' field (must be a non-empty string if provided)"
    });
  } else if (criteria !== void 0 && row.assert !== void 0) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.criteria`,
      message: "Do not combine test-level 'criteria' with 'assert'. Put human-readable case descriptions in tests[].description, or express grading text as an explicit assertion such as { type: 'llm-rubric', value: ... }."
    });
  }
  validateInputField(row.input, `${location}.input`, filePath, errors, {
    required: options.requireInput
  });
  if (row.expected_output !== void 0) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.expected_output`,
      message: "tests[].expected_output has been removed from authored eval YAML. Put the reference answer in tests[].vars.expected_output and consume it with an explicit assertion, for example { type: 'llm-rubric', value: 'Matches the reference answer: {{ expected_output }}' }."
    });
  }
  validateAssertArray(row.assert, `${location}.assert`, filePath, errors, customAssertionTypes);
  validateRunOverride(row.run, `${location}.run`, filePath, errors);
  validateTestOptions(row.options, `${location}.options`, filePath, errors);
  await validateEnvironmentConfig(row.environment, filePath, errors, `${location}.environment`);
  validateConversationMode(row, location, filePath, errors);
  await validateWorkspaceConfig(row.workspace, filePath, errors, `${location}.workspace`);
  const caseExecution = isObject(row.execution) ? row.execution : void 0;
  if (caseExecution) {
    validateTestExecutionFields(caseExecution, filePath, errors, location);
    rejectRuntimeWorkspaceConfig(
      caseExecution.workspace,
      filePath,
      errors,
      `${location}.execution.workspace`
    );
  }
  const targets = row.providers !== void 0 ? row.providers : row.provider;
  if (targets !== void 0) {
    validateTargetTestbedFields(targets, `${location}.providers`, filePath, errors);
  }
}
function validateEvaluateOptions(evaluateOptions, location, filePath, errors) {
  if (evaluateOptions === void 0) {
    return;
  }
  if (!isObject(evaluateOptions)) {
    errors.push({
      severity: "error",
      filePath,
      location,
      message: "Invalid 'evaluate_options' field (must be an object)"
    });
    return;
  }
  for (const key of Object.keys(evaluateOptions)) {
    if (!KNOWN_EVALUATE_OPTION_FIELDS.has(key)) {
      errors.push({
        severity: "warning",
        filePath,
        location: `${location}.${key}`,
        message: `Unknown evaluate_options field '${key}'. This field will be ignored.`
      });
    }
  }
  const budgetUsd = evaluateOptions.budget_usd;
  if (budgetUsd !== void 0 && (typeof budgetUsd !== "number" || budgetUsd <= 0)) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.budget_usd`,
      message: "Invalid 'budget_usd' field (must be a positive number)"
    });
  }
  const maxConcurrency = evaluateOptions.max_concurrency;
  if (maxConcurrency !== void 0 && (typeof maxConcurrency !== "number" || !Number.isInteger(maxConcurrency) || maxConcurrency < 1 || maxConcurrency > 50)) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.max_concurrency`,
      message: "Invalid 'max_concurrency' field (must be an integer between 1 and 50)"
    });
  }
  validateNonNegativeNumber(evaluateOptions.delay, `${location}.delay`, filePath, errors);
  validatePositiveNumber(evaluateOptions.timeout_ms, `${location}.timeout_ms`, filePath, errors);
  validatePositiveNumber(
    evaluateOptions.max_eval_time_ms,
    `${location}.max_eval_time_ms`,
    filePath,
    errors
  );
  validateEvaluateOptionsRepeat(evaluateOptions.repeat, `${location}.repeat`, filePath, errors);
  validateFilterRange(evaluateOptions.filter_range, `${location}.filter_range`, filePath, errors);
}
function validatePositiveNumber(value, location, filePath, errors) {
  if (value !== void 0 && (typeof value !== "number" || value <= 0)) {
    errors.push({
      severity: "error",
      filePath,
      location,
      message: `Invalid '${location}' field (must be a positive number)`
    });
  }
}
function validateNonNegativeNumber(value, location, filePath, errors) {
  if (value !== void 0 && (typeof value !== "number" || value < 0)) {
    errors.push({
      severity: "error",
      filePath,
      location,
      message: `Invalid '${location}' field (must be a non-negative number)`
    });
  }
}
function validateEvaluateOptionsRepeat(repeat, location, filePath, errors) {
  if (repeat === void 0) {
    return;
  }
  if (typeof repeat === "number") {
    if (!Number.isInteger(repeat) || repeat < 1) {
      errors.push({
        severity: "error",
        filePath,
        location,
        message: "Invalid 'evaluate_options.repeat' field (must be a positive integer)"
      });
    }
    return;
  }
  validateRepeatOverride(repeat, location, filePath, errors);
}
function validateFilterRange(filterRange, location, filePath, errors) {
  if (filterRange === void 0 || typeof filterRange === "string") {
    return;
  }
  if (!Array.isArray(filterRange) || filterRange.length !== 2 || filterRange.some((value) => typeof value !== "number")) {
    errors.push({
      severity: "error",
      filePath,
      location,
      message: "Invalid 'evaluate_options.filter_range' field (must be a two-number array)"
    });
  }
}
function validateRepeatOverride(repeat, location, filePath, errors) {
  if (repeat === void 0) {
    return;
  }
  if (!isObject(repeat)) {
    errors.push({
      severity: "error",
      filePath,
      location,
      message: "Invalid 'repeat' field (must be an object)"
    });
    return;
  }
  for (const key of Object.keys(repeat)) {
    if (!KNOWN_REPEAT_FIELDS.has(key)) {
      errors.push({
        severity: "error",
        filePath,
        location: `${location}.${key}`,
        message: "Invalid repeat field. Supported fields: count, strategy, early_exit, cost_limit_usd."
      });
    }
  }
  if (typeof repeat.count !== "number" || !Number.isInteger(repeat.count) || repeat.count < 1) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.count`,
      message: "Invalid 'count' field (must be a positive integer)"
    });
  }
  if (repeat.strategy !== void 0 && (typeof repeat.strategy !== "string" || !KNOWN_REPEAT_STRATEGIES.has(repeat.strategy))) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.strategy`,
      message: "Invalid 'strategy' field (must be pass_any, pass_all, mean, or confidence_interval; use pass_any instead of removed pass_at_k)"
    });
  }
  const earlyExit = repeat.early_exit;
  if (earlyExit !== void 0 && typeof earlyExit !== "boolean") {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.early_exit`,
      message: "Invalid 'early_exit' field (must be a boolean)"
    });
  }
  const costLimit = repeat.cost_limit_usd;
  if (costLimit !== void 0 && (typeof costLimit !== "number" || costLimit < 0)) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.cost_limit_usd`,
      message: "Invalid 'cost_limit_usd' field (must be a non-negative number)"
    });
  }
}
function validateIncludeSelect(select, location, filePath, errors) {
  if (select === void 0 || typeof select === "string") {
    return;
  }
  if (Array.isArray(select)) {
    if (!select.every((value) => typeof value === "string")) {
      errors.push({
        severity: "error",
        filePath,
        location,
        message: "Invalid 'select' field (array values must be strings)"
      });
    }
    return;
  }
  if (!isObject(select)) {
    errors.push({
      severity: "error",
      filePath,
      location,
      message: "Invalid 'select' field (must be a string, string array, or object)"
    });
    return;
  }
  for (const [key, value] of Object.entries(select)) {
    if (key !== "test_ids" && key !== "tags" && key !== "metadata") {
      errors.push({
        severity: "warning",
        filePath,
        location: `${location}.${key}`,
        message: `Unknown field '${key}'. This field will be ignored.`
      });
      continue;
    }
    if (key === "metadata") {
      if (!isObject(value)) {
        errors.push({
          severity: "error",
          filePath,
          location: `${location}.metadata`,
          message: "Invalid 'metadata' selector (must be an object)"
        });
      }
      continue;
    }
    if (typeof value !== "string" && !(Array.isArray(value) && value.every((entry) => typeof entry === "string"))) {
      errors.push({
        severity: "error",
        filePath,
        location: `${location}.${key}`,
        message: `Invalid '${key}' selector (must be a string or string array)`
      });
    }
  }
}
async function validateWorkspaceConfig(workspace, evalFilePath, errors, location) {
  if (workspace === void 0) {
    return;
  }
  if (typeof workspace === "string") {
    errors.push({
      severity: "error",
      filePath: evalFilePath,
      location,
      message: `${location} has been removed from public eval YAML. Use environment: file://... for reusable coding-agent testbed recipes.`
    });
    return;
  }
  if (isObject(workspace)) {
    validateWorkspaceRepoConfig(workspace, evalFilePath, errors, location);
    return;
  }
}
function validateWorkspaceRepoConfig(workspace, filePath, errors, location) {
  const repos = workspace.repos;
  const hooks = workspace.hooks;
  const afterEachHook = isObject(hooks) ? hooks.after_each : void 0;
  const scope = workspace.scope;
  const docker = workspace.docker;
  let hasRemovedTestbedField = false;
  if (Object.keys(workspace).length === 0) {
    errors.push({
      severity: "error",
      filePath,
      location,
      message: "workspace has been removed from public eval YAML. Use environment for coding-agent testbed setup."
    });
    return;
  }
  if ("template" in workspace) {
    hasRemovedTestbedField = true;
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.template`,
      message: "workspace.template has been removed from public eval YAML. Use environment.workdir and environment.setup for authored testbed setup."
    });
  }
  if ("repos" in workspace) {
    hasRemovedTestbedField = true;
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.repos`,
      message: "workspace.repos has been removed from public eval YAML. Use environment.setup.command argv to materialize repositories."
    });
  }
  if ("scope" in workspace) {
    hasRemovedTestbedField = true;
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.scope`,
      message: "workspace.scope has been removed from public eval YAML. Use environment at suite/test scope and let runtime manage workspace lifetime."
    });
  }
  if ("docker" in workspace) {
    hasRemovedTestbedField = true;
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.docker`,
      message: "workspace.docker has been removed from public eval YAML. Use environment.type: docker with image or context."
    });
  }
  if ("hooks" in workspace) {
    hasRemovedTestbedField = true;
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.hooks`,
      message: "workspace.hooks has been removed from public eval YAML. Use environment.setup for testbed setup and extensions for lifecycle instrumentation."
    });
  }
  if ("env" in workspace) {
    hasRemovedTestbedField = true;
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.env`,
      message: "workspace.env has been removed from public eval YAML. Use top-level env for provider/eval variables or environment.env for environment-scoped variables."
    });
  }
  if (hasRemovedTestbedField) {
    return;
  }
  if ("mode" in workspace) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.mode`,
      message: "workspace.mode has been removed from eval YAML. Use --workspace-path or execution.workspace_path for machine-local existing directories, and environment for portable testbed setup."
    });
  }
  if ("isolation" in workspace) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.isolation`,
      message: "workspace.isolation has been removed from eval YAML. Use environment at suite/test scope and let AgentV manage runtime isolation."
    });
  }
  if ("path" in workspace) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.path`,
      message: "workspace.path has been removed from eval YAML. Use environment.workdir for portable testbed cwd; put existing machine-local workspace paths in .agentv/config.local.yaml execution.workspace_path or pass --workspace-path."
    });
  }
  for (const key of Object.keys(workspace)) {
    if (KNOWN_REMOVED_WORKSPACE_FIELDS.has(key)) {
      continue;
    }
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.${key}`,
      message: `${location}.${key} has been removed from public eval YAML. Use environment for portable coding-agent testbed setup.`
    });
  }
  if (scope !== void 0 && scope !== "suite" && scope !== "attempt") {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.scope`,
      message: "workspace.scope must be 'suite' or 'attempt'."
    });
  }
  if (Array.isArray(repos)) {
    for (const repo of repos) {
      if (!isObject(repo)) continue;
      if ("source" in repo) {
        errors.push({
          severity: "error",
          filePath,
          location: `${location}.repos[path=${repo.path ?? "(none)"}]`,
          message: "workspace.repos[].source has been removed. Use workspace.repos[].repo."
        });
      }
      if ("checkout" in repo) {
        errors.push({
          severity: "error",
          filePath,
          location: `${location}.repos[path=${repo.path ?? "(none)"}]`,
          message: "workspace.repos[].checkout has been removed. Use top-level commit and ancestor."
        });
      }
      if ("clone" in repo) {
        errors.push({
          severity: "error",
          filePath,
          location: `${location}.repos[path=${repo.path ?? "(none)"}]`,
          message: "workspace.repos[].clone has been removed. Use top-level sparse if needed."
        });
      }
      if ("type" in repo) {
        errors.push({
          severity: "error",
          filePath,
          location: `${location}.repos[path=${repo.path ?? "(none)"}]`,
          message: "workspace.repos[].type has been removed. Use workspace.repos[].repo."
        });
      }
      if ("resolve" in repo) {
        errors.push({
          severity: "error",
          filePath,
          location: `${location}.repos[path=${repo.path ?? "(none)"}]`,
          message: "workspace.repos[].resolve has been removed. Configure repo_resolvers instead."
        });
      }
      if ("resolver" in repo) {
        errors.push({
          severity: "error",
          filePath,
          location: `${location}.repos[path=${repo.path ?? "(none)"}]`,
          message: "workspace.repos[].resolver has been removed. Configure repo_resolvers.repos patterns instead."
        });
      }
      for (const key of Object.keys(repo)) {
        if (!SUPPORTED_WORKSPACE_REPO_FIELDS.has(key)) {
          errors.push({
            severity: "error",
            filePath,
            location: `${location}.repos[path=${repo.path ?? "(none)"}]`,
            message: `workspace.repos[].${key} is not supported. Supported fields: path, repo, commit, ancestor, sparse.`
          });
        }
      }
      if (!repo.repo && !isObject(docker)) {
        errors.push({
          severity: "error",
          filePath,
          location: `${location}.repos[path=${repo.path ?? "(none)"}]`,
          message: "repos[].repo is required for non-Docker workspaces. Repo-less entries are only valid when workspace.docker is configured."
        });
      }
    }
  }
  if (isObject(afterEachHook) && afterEachHook.reset && scope === "attempt") {
    errors.push({
      severity: "warning",
      filePath,
      location: `${location}.hooks.after_each`,
      message: "hooks.after_each.reset is redundant with workspace.scope: attempt (each attempt gets a fresh workspace)."
    });
  }
}
function validateMessages(messages, location, filePath, errors) {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    const msgLocation = `${location}[${i}]`;
    if (!isObject(message)) {
      errors.push({
        severity: "error",
        filePath,
        location: msgLocation,
        message: "Message must be an object"
      });
      continue;
    }
    const role = message.role;
    const validRoles = ["system", "user", "assistant", "tool"];
    if (!validRoles.includes(role)) {
      errors.push({
        severity: "error",
        filePath,
        location: `${msgLocation}.role`,
        message: `Invalid role '${role}'. Must be one of: ${validRoles.join(", ")}`
      });
    }
    const content = message.content;
    const hasToolCalls = "tool_calls" in message;
    if (content === void 0 && hasToolCalls) {
    } else if (typeof content === "string") {
      validateContentForRoleMarkers(content, `${msgLocation}.content`, filePath, errors);
    } else if (Array.isArray(content)) {
      for (let j = 0; j < content.length; j++) {
        const contentItem = content[j];
        const contentLocation = `${msgLocation}.content[${j}]`;
        if (typeof contentItem === "string") {
          validateContentForRoleMarkers(contentItem, contentLocation, filePath, errors);
        } else if (isObject(contentItem)) {
          const type = contentItem.type;
          if (typeof type !== "string") {
            errors.push({
              severity: "error",
              filePath,
              location: `${contentLocation}.type`,
              message: "Content object must have a 'type' field"
            });
          }
          if (type === "text") {
            const value = contentItem.value;
            if (typeof value !== "string") {
              errors.push({
                severity: "error",
                filePath,
                location: `${contentLocation}.value`,
                message: "Content with type 'text' must have a 'value' field"
              });
            } else {
              validateContentForRoleMarkers(value, `${contentLocation}.value`, filePath, errors);
            }
          }
        } else {
          errors.push({
            severity: "error",
            filePath,
            location: contentLocation,
            message: "Content array items must be strings or objects"
          });
        }
      }
    } else if (isObject(content)) {
    } else {
      errors.push({
        severity: "error",
        filePath,
        location: `${msgLocation}.content`,
        message: "Missing or invalid 'content' field (must be a string, array, or object)"
      });
    }
  }
}
function validateInputField(inputField, location, filePath, errors, options = {}) {
  if (inputField === void 0) {
    if (options.required) {
      errors.push({
        severity: "error",
        filePath,
        location,
        message: "Missing prompt input. Author top-level 'prompts' and put data in default_test.vars or tests[].vars; external raw-case files may still provide internal input."
      });
    }
    return;
  }
  if (typeof inputField === "string") {
    return;
  }
  if (Array.isArray(inputField)) {
    validateMessages(inputField, location, filePath, errors);
    return;
  }
  if (isObject(inputField)) {
    if ("role" in inputField) {
      validateMessages([inputField], location, filePath, errors);
    }
    return;
  }
  const label = location === "input" ? "suite-level 'input'" : "'input'";
  errors.push({
    severity: "error",
    filePath,
    location,
    message: `Invalid ${label} field (must be a string, object, or array of messages)`
  });
}
function validateMetadata(parsed, filePath, errors) {
  const name = parsed.name;
  if (name !== void 0) {
    if (typeof name === "string") {
      if (!NAME_PATTERN.test(name)) {
        errors.push({
          severity: "warning",
          filePath,
          location: "name",
          message: `Invalid 'name' format '${name}'. Must match pattern /^[a-z0-9-]+$/ (lowercase alphanumeric with hyphens).`
        });
      }
    }
  }
}
function validateTestsStringPath(testsPath, filePath, errors, location = "tests") {
  let normalizedPath = testsPath.startsWith("file://") ? testsPath.slice("file://".length) : testsPath;
  const scriptFunctionMatch = normalizedPath.match(/\.(?:mjs|cjs|js|py):[^/\\:]+$/i);
  if (scriptFunctionMatch) {
    normalizedPath = normalizedPath.slice(0, normalizedPath.lastIndexOf(":"));
  }
  if (/\.eval\.ya?ml$/i.test(normalizedPath)) {
    errors.push({
      severity: "error",
      filePath,
      location,
      message: "tests shorthand imports raw case files only. Use an include entry with type: suite to import eval suites."
    });
    return false;
  }
  const ext = path22.extname(normalizedPath);
  if (ext && !VALID_TEST_FILE_EXTENSIONS.has(ext)) {
    errors.push({
      severity: "warning",
      filePath,
      location,
      message: `Unsupported file extension '${ext}' for tests path '${testsPath}'. Supported extensions: ${[...VALID_TEST_FILE_EXTENSIONS].join(", ")}`
    });
    return false;
  }
  return true;
}
function hasGlobMagic(value) {
  return /[*?[\]{}()!+@]/.test(value);
}
async function validateRawCaseImportPath(testsPath, filePath, location, errors) {
  if (!validateTestsStringPath(testsPath, filePath, errors, location)) {
    return;
  }
  const rawPath = testsPath.startsWith("file://") ? testsPath.slice("file://".length) : testsPath;
  const absolutePath = path22.resolve(path22.dirname(filePath), rawPath);
  try {
    const caseFiles = hasGlobMagic(rawPath) ? (await fg3(absolutePath.replaceAll("\\", "/"), {
      onlyFiles: true,
      absolute: true
    })).sort() : [absolutePath];
    let caseIndex = 0;
    for (const casePath of caseFiles) {
      const statPath = casePath.match(/\.(?:mjs|cjs|js|py):[^/\\:]+$/i) ? casePath.slice(0, casePath.lastIndexOf(":")) : casePath;
      const pathStat = await stat2(statPath).catch(() => void 0);
      const externalCases = pathStat?.isDirectory() ? await loadCasesFromDirectory(casePath) : await loadCasesFromFile(casePath);
      for (const externalCase of externalCases) {
        await validateWorkspaceConfig(
          externalCase.workspace,
          filePath,
          errors,
          `${location}[${caseIndex}].workspace`
        );
        caseIndex += 1;
      }
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push({
      severity: "error",
      filePath,
      location,
      message
    });
  }
}
async function resolveSuiteIncludePaths(includePath, evalFileDir) {
  const absolutePattern = path22.resolve(evalFileDir, includePath);
  const matches = hasGlobMagic(includePath) ? (await fg3(absolutePattern.replaceAll("\\", "/"), {
    onlyFiles: true,
    absolute: true
  })).sort() : [absolutePattern];
  const seen = /* @__PURE__ */ new Set();
  const resolved = [];
  for (const match of matches) {
    const identity = await canonicalEvalFileIdentity(match);
    if (seen.has(identity)) {
      continue;
    }
    seen.add(identity);
    resolved.push({
      identity,
      filePath: path22.resolve(match),
      displayPath: displayEvalImportPath(path22.resolve(match))
    });
  }
  return resolved;
}
async function validateSuiteImportCycles(filePath, parsed, errors) {
  const root = {
    identity: await canonicalEvalFileIdentity(filePath),
    filePath,
    displayPath: displayEvalImportPath(filePath)
  };
  await validateSuiteImportCyclesFromParsed(filePath, parsed, [root], errors);
}
async function validateSuiteImportCyclesFromParsed(currentFilePath, parsed, stack, errors) {
  const includeEntries = collectImportEntries(parsed);
  if (includeEntries.length === 0) {
    return;
  }
  for (const entry of includeEntries) {
    if (entry.type !== "suite") {
      continue;
    }
    const resolvedSuites = await resolveSuiteIncludePaths(
      entry.path,
      path22.dirname(currentFilePath)
    );
    for (const resolvedSuite of resolvedSuites) {
      if (stack.some((ancestor) => ancestor.identity === resolvedSuite.identity)) {
        errors.push({
          severity: "error",
          filePath: currentFilePath,
          location: entry.location,
          message: `Circular eval suite import: ${formatCircularImportChain(stack, resolvedSuite)}`
        });
        continue;
      }
      let childParsed;
      try {
        childParsed = interpolateEnv(
          parseYamlValue(await readFile22(resolvedSuite.filePath, "utf8")),
          process.env
        );
      } catch {
        continue;
      }
      if (!isObject(childParsed)) {
        continue;
      }
      await validateSuiteImportCyclesFromParsed(
        resolvedSuite.filePath,
        childParsed,
        [...stack, resolvedSuite],
        errors
      );
    }
  }
}
function validateAssertArray(assertField, location, filePath, errors, customAssertionTypes = /* @__PURE__ */ new Set()) {
  if (assertField === void 0) {
    return;
  }
  if (!Array.isArray(assertField)) {
    errors.push({
      severity: "warning",
      filePath,
      location,
      message: `'${location}' must be an array of assertion objects.`
    });
    return;
  }
  const objectItems = [];
  for (let i = 0; i < assertField.length; i++) {
    const item = assertField[i];
    if (typeof item === "string") {
      if (item.trim().length === 0) {
        errors.push({
          severity: "warning",
          filePath,
          location: `${location}[${i}]`,
          message: "Empty string assertion item will be ignored."
        });
      }
      continue;
    }
    if (!isObject(item)) {
      errors.push({
        severity: "warning",
        filePath,
        location: `${location}[${i}]`,
        message: "Assertion item must be a string or an object with a type field."
      });
      continue;
    }
    objectItems.push({ item, index: i });
  }
  for (const { item, index } of objectItems) {
    const itemLocation = `${location}[${index}]`;
    if (item.postprocess !== void 0) {
      errors.push({
        severity: "error",
        filePath,
        location: `${itemLocation}.postprocess`,
        message: `${itemLocation}.postprocess has been removed. Use ${itemLocation}.transform instead.`
      });
    }
    if (item.preprocessors !== void 0) {
      errors.push({
        severity: "error",
        filePath,
        location: `${itemLocation}.preprocessors`,
        message: `${itemLocation}.preprocessors has been removed from authored eval YAML. Use ${itemLocation}.transform instead.`
      });
    }
    validateAssertArray(
      item.assert,
      `${itemLocation}.assert`,
      filePath,
      errors,
      customAssertionTypes
    );
    const rawTypeValue = item.type;
    if (rawTypeValue === void 0 || typeof rawTypeValue !== "string") {
      errors.push({
        severity: "warning",
        filePath,
        location: `${itemLocation}.type`,
        message: "Assertion item is missing a 'type' field."
      });
      continue;
    }
    const typeValue = rawTypeValue.replace(/_/g, "-");
    const staleMessage = staleAuthoredAssertionMessage(item);
    if (staleMessage) {
      errors.push({
        severity: "error",
        filePath,
        location: `${itemLocation}.type`,
        message: staleMessage
      });
      continue;
    }
    const replacement = REMOVED_ASSERTION_TYPE_REPLACEMENTS.get(typeValue);
    if (replacement) {
      errors.push({
        severity: "error",
        filePath,
        location: `${itemLocation}.type`,
        message: `Unsupported assertion type '${rawTypeValue}'. Use '${replacement}' instead.`
      });
      continue;
    }
    const baseTypeValue = typeValue.startsWith("not-") ? typeValue.slice(4) : typeValue;
    if (UNSUPPORTED_PROMPTFOO_ASSERTION_TYPES.has(baseTypeValue)) {
      errors.push({
        severity: "error",
        filePath,
        location: `${itemLocation}.type`,
        message: `Unsupported promptfoo assertion type '${rawTypeValue}'. This type is future scope in AgentV and is not accepted as a custom assertion.`
      });
      continue;
    }
    if (!isGraderKind(typeValue) && !isGraderKind(baseTypeValue) && !PROMPTFOO_ASSERTION_TYPES.has(typeValue) && !customAssertionTypes.has(typeValue)) {
      errors.push({
        severity: "warning",
        filePath,
        location: `${itemLocation}.type`,
        message: `Unknown assertion type '${rawTypeValue}'.`
      });
      continue;
    }
    if (ASSERTION_TYPES_WITH_STRING_VALUE.has(typeValue)) {
      const value = item.value;
      if (value === void 0 || typeof value !== "string") {
        errors.push({
          severity: "warning",
          filePath,
          location: `${itemLocation}.value`,
          message: `Assertion type '${typeValue}' requires a 'value' field (string).`
        });
        continue;
      }
      if (typeValue === "regex") {
        try {
          new RegExp(value);
        } catch {
          errors.push({
            severity: "warning",
            filePath,
            location: `${itemLocation}.value`,
            message: `Invalid regex pattern '${value}': not a valid regular expression.`
          });
        }
      }
    }
    if (ASSERTION_TYPES_WITH_ARRAY_VALUE.has(typeValue)) {
      const value = item.value;
      if (!Array.isArray(value) || value.length === 0 || value.some((entry) => typeof entry !== "string")) {
        errors.push({
          severity: "warning",
          filePath,
          location: `${itemLocation}.value`,
          message: `Assertion type '${typeValue}' requires a 'value' field (non-empty string array).`
        });
        continue;
      }
    }
    const required = item.required;
    if (required !== void 0) {
      validateRequiredField(required, itemLocation, filePath, errors);
    }
  }
}
function validateRequiredField(required, parentLocation, filePath, errors) {
  if (typeof required === "boolean") {
    return;
  }
  if (typeof required === "number") {
    errors.push({
      severity: "warning",
      filePath,
      location: `${parentLocation}.required`,
      message: `Numeric 'required: ${required}' has been removed. Use 'required: true' and 'min_score: ${required}' instead.`
    });
    return;
  }
  errors.push({
    severity: "warning",
    filePath,
    location: `${parentLocation}.required`,
    message: `Invalid 'required' value. Must be a boolean. Use 'min_score' for custom score thresholds.`
  });
}
function validateContentForRoleMarkers(content, location, filePath, errors) {
  const markers = ["@[System]:", "@[User]:", "@[Assistant]:", "@[Tool]:"];
  for (const marker of markers) {
    if (content.toLowerCase().includes(marker.toLowerCase())) {
      errors.push({
        severity: "warning",
        filePath,
        location,
        message: `Content contains potential role marker '${marker}'. This may confuse agentic providers or cause prompt injection.`
      });
    }
  }
}
function validateConversationMode(evalCase, location, filePath, errors) {
  const mode = evalCase.mode;
  const turns = evalCase.turns;
  const aggregation = evalCase.aggregation;
  const onTurnFailure = evalCase.on_turn_failure;
  const windowSize = evalCase.window_size;
  const isConversationMode = mode === "conversation";
  if (turns !== void 0 && !isConversationMode) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.turns`,
      message: "'turns' requires mode: conversation"
    });
  }
  if (isConversationMode && (!Array.isArray(turns) || turns.length === 0)) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.mode`,
      message: "mode: conversation requires a non-empty 'turns' array"
    });
  }
  if (isConversationMode && Array.isArray(turns) && evalCase.expected_output !== void 0) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.expected_output`,
      message: "Top-level 'expected_output' is not allowed with mode: conversation (use per-turn expected_output instead)"
    });
  }
  if (aggregation !== void 0 && !isConversationMode) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.aggregation`,
      message: "'aggregation' requires mode: conversation"
    });
  }
  if (onTurnFailure !== void 0 && !isConversationMode) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.on_turn_failure`,
      message: "'on_turn_failure' requires mode: conversation"
    });
  }
  if (windowSize !== void 0 && !isConversationMode) {
    errors.push({
      severity: "error",
      filePath,
      location: `${location}.window_size`,
      message: "'window_size' requires mode: conversation"
    });
  }
  if (isConversationMode && Array.isArray(turns)) {
    for (let i = 0; i < turns.length; i++) {
      const turn = turns[i];
      if (!isObject(turn)) {
        errors.push({
          severity: "error",
          filePath,
          location: `${location}.turns[${i}]`,
          message: "Turn must be an object"
        });
        continue;
      }
      const turnInput = turn.input;
      const isEmpty = turnInput === void 0 || turnInput === "" || typeof turnInput === "string" && turnInput.trim() === "" || Array.isArray(turnInput) && turnInput.length === 0;
      if (isEmpty) {
        errors.push({
          severity: "error",
          filePath,
          location: `${location}.turns[${i}].input`,
          message: "Each turn must have a non-empty input"
        });
      }
    }
  }
}
function isObject2(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
async function validateCasesFile(filePath) {
  const errors = [];
  const absolutePath = path32.resolve(filePath);
  let parsed;
  try {
    const content = await readFile3(absolutePath, "utf8");
    parsed = parseYamlValue(content);
  } catch (error) {
    errors.push({
      severity: "error",
      filePath: absolutePath,
      message: `Failed to parse YAML: ${error.message}`
    });
    return { valid: false, filePath: absolutePath, fileType: "cases", errors };
  }
  if (!Array.isArray(parsed)) {
    errors.push({
      severity: "error",
      filePath: absolutePath,
      message: "Cases file must contain a YAML array of test case objects"
    });
    return { valid: false, filePath: absolutePath, fileType: "cases", errors };
  }
  for (let i = 0; i < parsed.length; i++) {
    const item = parsed[i];
    const location = `[${i}]`;
    if (!isObject2(item)) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location,
        message: "Each test case must be an object"
      });
      continue;
    }
    const id = item.id;
    if (typeof id !== "string" || id.trim().length === 0) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.id`,
        message: "Missing or invalid 'id' field (must be a non-empty string)"
      });
    }
    const input = item.input;
    if (input === void 0) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.input`,
        message: "Missing 'input' field (must be a string or array of messages)"
      });
    } else if (typeof input !== "string" && !Array.isArray(input)) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.input`,
        message: "Invalid 'input' field (must be a string or array of messages)"
      });
    }
  }
  return {
    valid: errors.filter((e) => e.severity === "error").length === 0,
    filePath: absolutePath,
    fileType: "cases",
    errors
  };
}
var LEGACY_ENV_PATTERN = /\$\{\{\s*([A-Z_][A-Z0-9_]*)\s*\}\}/g;
function isObject3(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function isNonEmptyString(value) {
  return typeof value === "string" && value.trim().length > 0;
}
function isEnvTemplated(value) {
  return typeof value === "string" && (/^\s*\{\{\s*env\.[\s\S]+?\}\}\s*$/.test(value) || /^\s*\$\{\{\s*[A-Z_][A-Z0-9_]*\s*\}\}\s*$/.test(value));
}
function validateLegacyEnvTemplates(value, filePath, location, errors) {
  if (typeof value === "string") {
    for (const match of value.matchAll(LEGACY_ENV_PATTERN)) {
      const name = match[1];
      errors.push({
        severity: "error",
        filePath,
        location,
        message: `Legacy environment syntax \${{ ${name} }} has been removed. Use {{ env.${name} }} instead.`
      });
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach(
      (entry, index) => validateLegacyEnvTemplates(entry, filePath, `${location}[${index}]`, errors)
    );
    return;
  }
  if (isObject3(value)) {
    for (const [key, nested] of Object.entries(value)) {
      validateLegacyEnvTemplates(nested, filePath, `${location}.${key}`, errors);
    }
  }
}
var COMMON_SETTINGS = new Set(COMMON_TARGET_SETTINGS);
var RETRY_SETTINGS = /* @__PURE__ */ new Set([
  "max_retries",
  "retry_initial_delay_ms",
  "retry_max_delay_ms",
  "retry_backoff_factor",
  "retry_status_codes"
]);
var AZURE_SETTINGS = /* @__PURE__ */ new Set([
  ...COMMON_SETTINGS,
  ...RETRY_SETTINGS,
  "endpoint",
  "resource",
  "api_key",
  "deployment",
  "model",
  "version",
  "api_version",
  "temperature",
  "max_output_tokens"
]);
var OPENAI_SETTINGS = /* @__PURE__ */ new Set([
  ...COMMON_SETTINGS,
  ...RETRY_SETTINGS,
  "endpoint",
  "base_url",
  "api_key",
  "model",
  "deployment",
  "variant",
  "api_format",
  "temperature",
  "max_output_tokens"
]);
var OPENROUTER_SETTINGS = /* @__PURE__ */ new Set([
  ...COMMON_SETTINGS,
  ...RETRY_SETTINGS,
  "api_key",
  "model",
  "deployment",
  "variant",
  "temperature",
  "max_output_tokens"
]);
var ANTHROPIC_SETTINGS = /* @__PURE__ */ new Set([
  ...COMMON_SETTINGS,
  ...RETRY_SETTINGS,
  "api_key",
  "model",
  "deployment",
  "variant",
  "temperature",
  "max_output_tokens",
  "thinking_budget"
]);
var GEMINI_SETTINGS = /* @__PURE__ */ new Set([
  ...COMMON_SETTINGS,
  ...RETRY_SETTINGS,
  "api_key",
  "model",
  "deployment",
  "variant",
  "temperature",
  "max_output_tokens"
]);
var CODEX_SETTINGS = /* @__PURE__ */ new Set([
  ...COMMON_SETTINGS,
  "endpoint",
  "base_url",
  "api_key",
  "api_format",
  "model",
  "reasoning_effort",
  "model_reasoning_effort",
  "model_verbosity",
  "sandbox_mode",
  "approval_policy",
  "command",
  "cwd",
  "timeout_seconds",
  "log_dir",
  "log_directory",
  "stream_log",
  "system_prompt"
]);
var COPILOT_SDK_SETTINGS = /* @__PURE__ */ new Set([
  ...COMMON_SETTINGS,
  "cli_url",
  "cli_path",
  "args",
  "arguments",
  "github_token",
  "model",
  "cwd",
  "timeout_seconds",
  "log_dir",
  "stream_log",
  "system_prompt",
  "subprovider",
  "base_url",
  "api_key",
  "bearer_token",
  "api_version",
  "api_format",
  "model_id",
  "wire_model"
]);
var COPILOT_CLI_SETTINGS = /* @__PURE__ */ new Set([
  ...COMMON_SETTINGS,
  "executable",
  "command",
  "binary",
  "args",
  "arguments",
  "model",
  "cwd",
  "timeout_seconds",
  "log_dir",
  "stream_log",
  "system_prompt",
  "subprovider",
  "base_url",
  "api_key",
  "bearer_token",
  "api_version",
  "api_format",
  "model_id",
  "wire_model"
]);
var PI_AGENT_SETTINGS = /* @__PURE__ */ new Set([
  ...COMMON_SETTINGS,
  "executable",
  "command",
  "binary",
  "args",
  "arguments",
  "subprovider",
  "model",
  "pi_model",
  "api_key",
  "base_url",
  "endpoint",
  "tools",
  "pi_tools",
  "thinking",
  "pi_thinking",
  "reasoning_effort",
  "cwd",
  "timeout_seconds",
  "log_dir",
  "log_directory",
  "stream_log",
  "system_prompt",
  "runtime"
]);
var VSCODE_SETTINGS = /* @__PURE__ */ new Set([
  ...COMMON_SETTINGS,
  "executable",
  "wait",
  "dry_run",
  "subagent_root",
  "timeout_seconds"
]);
var MOCK_SETTINGS = /* @__PURE__ */ new Set([
  ...COMMON_SETTINGS,
  "response",
  "trace"
  // For testing tool-trajectory evaluator
]);
var REPLAY_SETTINGS = /* @__PURE__ */ new Set([
  ...COMMON_SETTINGS,
  "fixtures",
  "execution_traces",
  "transcripts",
  "source_target",
  "suite",
  "eval_path",
  "variant"
]);
var CLAUDE_SETTINGS = /* @__PURE__ */ new Set([
  ...COMMON_SETTINGS,
  "executable",
  "command",
  "binary",
  "model",
  "cwd",
  "timeout_seconds",
  "log_dir",
  "log_directory",
  "stream_log",
  "system_prompt",
  "max_turns",
  "max_budget_usd"
]);
function getKnownSettings(provider) {
  const normalizedProvider = provider.toLowerCase();
  switch (normalizedProvider) {
    case "openai":
      return OPENAI_SETTINGS;
    case "openrouter":
      return OPENROUTER_SETTINGS;
    case "azure":
      return AZURE_SETTINGS;
    case "anthropic":
      return ANTHROPIC_SETTINGS;
    case "gemini":
      return GEMINI_SETTINGS;
    case "codex-cli":
    case "codex-app-server":
    case "codex-sdk":
      return CODEX_SETTINGS;
    case "copilot-sdk":
      return COPILOT_SDK_SETTINGS;
    case "copilot-cli":
      return COPILOT_CLI_SETTINGS;
    case "claude-cli":
    case "claude-sdk":
      return CLAUDE_SETTINGS;
    case "pi-cli":
    case "pi-rpc":
    case "pi-sdk":
    case "pi-coding-agent":
      return PI_AGENT_SETTINGS;
    case "vscode":
    case "vscode-insiders":
      return VSCODE_SETTINGS;
    case "mock":
      return MOCK_SETTINGS;
    case "replay":
      return REPLAY_SETTINGS;
    case "cli":
      return null;
    default:
      return null;
  }
}
function validateUnknownSettings(target, provider, absolutePath, location, errors) {
  const knownSettings = getKnownSettings(provider);
  if (!knownSettings) {
    return;
  }
  const baseFields = /* @__PURE__ */ new Set([
    "id",
    "name",
    "label",
    "provider",
    "config",
    "prompts",
    "transform",
    "delay",
    "env",
    "grader_target",
    "judge_target",
    "use_target",
    "workers",
    "$schema",
    "targets"
  ]);
  const removedFields = /* @__PURE__ */ new Set(["workspace_template", "workspaceTemplate"]);
  const removedPerProvider = {
    azure: /* @__PURE__ */ new Map([
      [
        "api_format",
        "The 'api_format' field has been removed from Azure targets. AgentV always uses Azure's Responses API (`/openai/v1/responses`). If your deployment only exposes /chat/completions, use 'provider: openai' with a deployment-scoped 'base_url' instead."
      ]
    ])
  };
  const removedForProvider = removedPerProvider[provider];
  for (const key of Object.keys(target)) {
    if (removedFields.has(key)) {
      errors.push({
        severity: "warning",
        filePath: absolutePath,
        location: `${location}.${key}`,
        message: "workspace_template has been removed from targets. Use eval-level environment.workdir and environment.setup instead."
      });
      continue;
    }
    if (key === "log_format" || key === "log_output_format") {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.${key}`,
        message: `The '${key}' field has been removed. Use 'stream_log: raw' for per-event logs or 'stream_log: summary' for consolidated logs.`
      });
      continue;
    }
    if (key === "provider_batching") {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.${key}`,
        message: "The 'provider_batching' field has been removed. Use 'batch_requests' instead."
      });
      continue;
    }
    if (removedForProvider?.has(key)) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.${key}`,
        message: removedForProvider.get(key)
      });
      continue;
    }
    if (!baseFields.has(key) && !knownSettings.has(key)) {
      errors.push({
        severity: "warning",
        filePath: absolutePath,
        location: `${location}.${key}`,
        message: `Unknown setting '${key}' for ${provider} provider. This property will be ignored.`
      });
    }
  }
}
async function validateTargetsFile(filePath) {
  const errors = [];
  const absolutePath = path42.resolve(filePath);
  let parsed;
  let rawParsed;
  try {
    const content = await readFile4(absolutePath, "utf8");
    rawParsed = parseYamlValue(content);
    parsed = rawParsed;
  } catch (error) {
    errors.push({
      severity: "error",
      filePath: absolutePath,
      message: `Failed to parse YAML: ${error.message}`
    });
    return {
      valid: false,
      filePath: absolutePath,
      fileType: "targets",
      errors
    };
  }
  function validateCliSettings(target, absolutePath2, location, errors2) {
    const command = target.command;
    if (typeof command !== "string" || command.trim().length === 0) {
      errors2.push({
        severity: "error",
        filePath: absolutePath2,
        location: `${location}.command`,
        message: "CLI provider requires 'command' as a non-empty string"
      });
    } else {
      recordUnknownPlaceholders(command, absolutePath2, `${location}.command`, errors2);
    }
    const healthcheck = target.healthcheck;
    if (healthcheck !== void 0) {
      validateCliHealthcheck(healthcheck, absolutePath2, `${location}.healthcheck`, errors2);
    }
  }
  function validateCliHealthcheck(healthcheck, absolutePath2, location, errors2) {
    if (!isObject3(healthcheck)) {
      errors2.push({
        severity: "error",
        filePath: absolutePath2,
        location,
        message: "'healthcheck' must be an object when provided"
      });
      return;
    }
    const timeoutSeconds = healthcheck.timeout_seconds;
    if (timeoutSeconds !== void 0) {
      const numericTimeout = Number(timeoutSeconds);
      if (!Number.isFinite(numericTimeout) || numericTimeout <= 0) {
        errors2.push({
          severity: "error",
          filePath: absolutePath2,
          location: `${location}.timeout_seconds`,
          message: "healthcheck.timeout_seconds must be a positive number when provided"
        });
      }
    }
    const hasUrl = typeof healthcheck.url === "string" && healthcheck.url.trim().length > 0;
    const hasCommand = typeof healthcheck.command === "string" && healthcheck.command.trim().length > 0;
    if (!hasUrl && !hasCommand) {
      errors2.push({
        severity: "error",
        filePath: absolutePath2,
        location,
        message: "healthcheck must have either 'url' (HTTP) or 'command' (command)"
      });
      return;
    }
    if (hasUrl) {
      return;
    }
    recordUnknownPlaceholders(
      healthcheck.command,
      absolutePath2,
      `${location}.command`,
      errors2
    );
    const cwd = healthcheck.cwd;
    if (cwd !== void 0 && typeof cwd !== "string") {
      errors2.push({
        severity: "error",
        filePath: absolutePath2,
        location: `${location}.cwd`,
        message: "healthcheck.cwd must be a string when provided"
      });
    }
  }
  function recordUnknownPlaceholders(template, absolutePath2, location, errors2) {
    const placeholders = extractPlaceholders(template);
    for (const placeholder of placeholders) {
      if (!CLI_PLACEHOLDERS.has(placeholder)) {
        errors2.push({
          severity: "error",
          filePath: absolutePath2,
          location,
          message: `Unknown CLI placeholder '{${placeholder}}'. Supported placeholders: ${Array.from(CLI_PLACEHOLDERS).join(", ")}`
        });
      }
    }
  }
  function extractPlaceholders(template) {
    const matches = template.matchAll(/\{([A-Z_]+)\}/g);
    const result = [];
    for (const match of matches) {
      const placeholder = match[1];
      if (placeholder) {
        result.push(placeholder);
      }
    }
    return result;
  }
  if (!isObject3(parsed)) {
    errors.push({
      severity: "error",
      filePath: absolutePath,
      message: "File must contain a YAML object"
    });
    return {
      valid: false,
      filePath: absolutePath,
      fileType: "targets",
      errors
    };
  }
  if (Array.isArray(parsed.providers)) {
    errors.push({
      severity: "error",
      filePath: absolutePath,
      location: "providers",
      message: "Top-level 'providers' is not a runtime alias in targets.yaml. Use 'targets' for systems under test; provider names backend kind inside each target."
    });
  }
  const targets = parsed.targets;
  const rawTargets = isObject3(rawParsed) && Array.isArray(rawParsed.targets) ? rawParsed.targets : [];
  if (!Array.isArray(targets)) {
    errors.push({
      severity: "error",
      filePath: absolutePath,
      location: "targets",
      message: "Missing or invalid 'targets' field (must be an array)"
    });
    return {
      valid: errors.length === 0,
      filePath: absolutePath,
      fileType: "targets",
      errors
    };
  }
  const knownProviders = [...KNOWN_PROVIDERS];
  for (let i = 0; i < targets.length; i++) {
    const target = targets[i];
    const location = `targets[${i}]`;
    if (!isObject3(target)) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location,
        message: "Target must be an object"
      });
      continue;
    }
    validateLegacyEnvTemplates(rawTargets[i] ?? target, absolutePath, location, errors);
    let normalizedTarget;
    try {
      normalizedTarget = normalizeTargetDefinition(target);
    } catch (error) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location,
        message: error.message
      });
    }
    for (const warning of findDeprecatedCamelCaseTargetWarnings(
      normalizedTarget ?? target,
      location
    )) {
      const fieldMatch = warning.message.match(/field '([^']+)'/);
      const replacementMatch = warning.message.match(/Use '([^']+)' instead/);
      const field = fieldMatch?.[1] ?? "unknown";
      const replacement = replacementMatch?.[1] ?? "snake_case";
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: warning.location,
        message: `camelCase field '${field}' is no longer supported in targets.yaml. Use '${replacement}' instead.`
      });
    }
    const id = target.id;
    if (typeof id !== "string" || id.trim().length === 0) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.id`,
        message: "Missing or invalid 'id' field (must be a non-empty string)"
      });
    }
    if (typeof target.label === "string" && target.label.trim().length > 0) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.label`,
        message: "The target 'label' field has been removed. Use 'id' instead."
      });
    }
    if (typeof target.name === "string" && target.name.trim().length > 0) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.name`,
        message: "The target 'name' field has been removed. Use 'id' instead."
      });
    }
    const effectiveTarget = normalizedTarget ?? target;
    const provider = effectiveTarget.provider;
    const rawTarget = rawTargets[i];
    const rawUseTarget = isObject3(rawTarget) ? rawTarget.use_target : void 0;
    if (effectiveTarget.use_target !== void 0 || rawUseTarget !== void 0) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.use_target`,
        message: "The 'use_target' field has been removed from authored targets.yaml target definitions. Define a concrete target with 'provider' instead."
      });
    }
    const providerValue = typeof provider === "string" ? provider.trim().toLowerCase() : void 0;
    const isTemplated = isEnvTemplated(provider);
    if (typeof provider !== "string" || provider.trim().length === 0) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.provider`,
        message: "Missing or invalid 'provider' field (must be a non-empty string)"
      });
    } else if (!isTemplated && (providerValue === "claude" || providerValue === "copilot")) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.provider`,
        message: `Ambiguous provider '${providerValue}' is not supported. Choose an explicit provider such as '${providerValue}-cli' or '${providerValue}-sdk'.`
      });
    } else if (typeof provider === "string" && !isTemplated && !knownProviders.includes(provider)) {
      errors.push({
        severity: "warning",
        filePath: absolutePath,
        location: `${location}.provider`,
        message: `Unknown provider '${provider}'. Known providers: ${knownProviders.join(", ")}`
      });
    }
    if (providerValue === "cli") {
      validateCliSettings(effectiveTarget, absolutePath, location, errors);
    }
    if (providerValue === "replay") {
      const hasFixtures = isNonEmptyString(effectiveTarget.fixtures);
      const hasExecutionTraces = isNonEmptyString(effectiveTarget.execution_traces);
      const hasTranscripts = isNonEmptyString(effectiveTarget.transcripts);
      const sourceCount = (hasFixtures ? 1 : 0) + (hasExecutionTraces ? 1 : 0) + (hasTranscripts ? 1 : 0);
      if (sourceCount !== 1) {
        errors.push({
          severity: "error",
          filePath: absolutePath,
          location,
          message: "Replay provider requires exactly one replay source: 'fixtures', 'execution_traces', or 'transcripts'"
        });
      }
      if (!isNonEmptyString(effectiveTarget.source_target)) {
        errors.push({
          severity: "error",
          filePath: absolutePath,
          location: `${location}.source_target`,
          message: "Replay provider requires 'source_target' as a non-empty string"
        });
      }
    }
    if (typeof provider === "string" && !isTemplated) {
      validateUnknownSettings(effectiveTarget, provider, absolutePath, location, errors);
    }
    if (effectiveTarget.judge_target !== void 0) {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.judge_target`,
        message: "The 'judge_target' field has been removed. Use 'grader_target' instead."
      });
    }
    if (effectiveTarget.grader_target !== void 0 && typeof effectiveTarget.grader_target !== "string") {
      errors.push({
        severity: "error",
        filePath: absolutePath,
        location: `${location}.grader_target`,
        message: "Invalid 'grader_target' field (must be a string)"
      });
    }
  }
  return {
    valid: errors.filter((e) => e.severity === "error").length === 0,
    filePath: absolutePath,
    fileType: "targets",
    errors
  };
}
async function validateConfigFile(filePath, options = {}) {
  const errors = [];
  const scope = options.scope ?? inferConfigScope(filePath);
  try {
    const content = await readFile5(filePath, "utf8");
    const parsed = interpolateEnv(parseYamlValue(content), process.env);
    if (typeof parsed !== "object" || parsed === null) {
      errors.push({
        severity: "error",
        filePath,
        message: "Config file must contain a valid YAML object"
      });
      return { valid: false, filePath, fileType: "config", errors };
    }
    let config;
    try {
      config = await resolveConfigFieldReferences(parsed, filePath);
    } catch (error) {
      errors.push({
        severity: "error",
        filePath,
        message: error.message
      });
      return { valid: false, filePath, fileType: "config", errors };
    }
    const evalPatterns = config.eval_patterns;
    if (evalPatterns !== void 0) {
      if (!Array.isArray(evalPatterns)) {
        errors.push({
          severity: "error",
          filePath,
          location: "eval_patterns",
          message: "Field 'eval_patterns' must be an array"
        });
      } else if (!evalPatterns.every((p) => typeof p === "string")) {
        errors.push({
          severity: "error",
          filePath,
          location: "eval_patterns",
          message: "All entries in 'eval_patterns' must be strings"
        });
      } else if (evalPatterns.length === 0) {
        errors.push({
          severity: "warning",
          filePath,
          location: "eval_patterns",
          message: "Field 'eval_patterns' is empty. Consider removing it or adding patterns."
        });
      }
    }
    const requiredVersion = config.required_version;
    if (requiredVersion !== void 0) {
      if (typeof requiredVersion !== "string" || requiredVersion.trim().length === 0) {
        errors.push({
          severity: "error",
          filePath,
          location: "required_version",
          message: `Field 'required_version' must be a non-empty string (e.g. ">=3.1.0")`
        });
      }
    }
    validateResultsConfig(errors, filePath, config.results, "results");
    validateRepoResolversConfig(errors, filePath, config.repo_resolvers);
    validateRefsConfig(errors, filePath, config.refs);
    validateComposableGraph(errors, filePath, config);
    validateDashboardConfig(errors, filePath, config.dashboard);
    validateHooksConfig(errors, filePath, config.hooks);
    validateEnvPathConfig(errors, filePath, config.env_path);
    validateEnvFromConfig(errors, filePath, config.env_from);
    const projects = config.projects;
    if (projects !== void 0) {
      if (scope === "project") {
        errors.push({
          severity: "warning",
          filePath,
          location: "projects",
          message: "Field 'projects' is only valid in $AGENTV_HOME/config.yaml. Ignoring project registry entries in project-local .agentv/config.yaml."
        });
      } else if (!Array.isArray(projects)) {
        errors.push({
          severity: "error",
          filePath,
          location: "projects",
          message: "Field 'projects' must be an array"
        });
      } else {
        validateProjects(errors, filePath, projects);
      }
    }
    const allowedFields = /* @__PURE__ */ new Set([
      "$schema",
      "eval_patterns",
      "required_version",
      "execution",
      "results",
      "repo_resolvers",
      "refs",
      "targets",
      "graders",
      "tests",
      "defaults",
      "projects",
      "dashboard",
      "studio",
      "hooks",
      "env_path",
      "env_from"
    ]);
    const unexpectedFields = Object.keys(config).filter((key) => !allowedFields.has(key));
    if (unexpectedFields.length > 0) {
      errors.push({
        severity: "warning",
        filePath,
        message: `Unexpected fields: ${unexpectedFields.join(", ")}`
      });
    }
    return {
      valid: errors.filter((e) => e.severity === "error").length === 0,
      filePath,
      fileType: "config",
      errors
    };
  } catch (error) {
    errors.push({
      severity: "error",
      filePath,
      message: `Failed to parse config file: ${error.message}`
    });
    return { valid: false, filePath, fileType: "config", errors };
  }
}
function validateComposableGraph(errors, filePath, config) {
  try {
    normalizeComposableConfigGraph(config, filePath);
  } catch (error) {
    addError(errors, filePath, void 0, error.message);
  }
}
function validateDashboardConfig(errors, filePath, rawDashboard) {
  if (rawDashboard === void 0) {
    return;
  }
  if (!isPlainObject(rawDashboard)) {
    addError(errors, filePath, "dashboard", "Field 'dashboard' must be an object");
    return;
  }
  if (Object.prototype.hasOwnProperty.call(rawDashboard, "app_name")) {
    addError(
      errors,
      filePath,
      "dashboard.app_name",
      "Field 'dashboard.app_name' has been removed; the Dashboard app name is not user-configurable."
    );
  }
}
var ENV_FROM_FORMATS = /* @__PURE__ */ new Set(["shell_exports", "json"]);
function validateHooksConfig(errors, filePath, rawHooks) {
  if (rawHooks === void 0 || rawHooks === null) {
    return;
  }
  if (!isPlainObject(rawHooks)) {
    addError(errors, filePath, "hooks", "Field 'hooks' must be an object");
    return;
  }
  if (rawHooks.before_session !== void 0) {
    validateOptionalString(errors, filePath, rawHooks.before_session, "hooks.before_session");
    errors.push({
      severity: "warning",
      filePath,
      location: "hooks.before_session",
      message: "'hooks.before_session' is deprecated; use 'env_path' and/or 'env_from' to load environment variables before validation and eval."
    });
  }
}
function validateEnvPathConfig(errors, filePath, rawEnvPath) {
  if (rawEnvPath === void 0 || rawEnvPath === null) {
    return;
  }
  const isList = Array.isArray(rawEnvPath);
  const entries = isList ? rawEnvPath : [rawEnvPath];
  entries.forEach((entry, index) => {
    const location = isList ? `env_path[${index}]` : "env_path";
    if (typeof entry !== "string" || entry.trim().length === 0) {
      addError(errors, filePath, location, `Field '${location}' must be a non-empty string`);
    }
  });
}
function validateEnvFromConfig(errors, filePath, rawEnvFrom) {
  if (rawEnvFrom === void 0 || rawEnvFrom === null) {
    return;
  }
  const isList = Array.isArray(rawEnvFrom);
  const entries = isList ? rawEnvFrom : [rawEnvFrom];
  entries.forEach((entry, index) => {
    const location = isList ? `env_from[${index}]` : "env_from";
    if (!isPlainObject(entry)) {
      addError(errors, filePath, location, `Field '${location}' must be an object`);
      return;
    }
    const command = entry.command;
    if (typeof command === "string") {
      addError(
        errors,
        filePath,
        `${location}.command`,
        `Field '${location}.command' must be an argv array of strings, not a shell command string. Use e.g. ["bun", "scripts/load-secrets.ts"].`
      );
    } else if (!Array.isArray(command) || command.length === 0 || !command.every((part) => typeof part === "string" && part.length > 0)) {
      addError(
        errors,
        filePath,
        `${location}.command`,
        `Field '${location}.command' must be a non-empty array of strings`
      );
    }
    if (entry.format !== void 0 && !ENV_FROM_FORMATS.has(entry.format)) {
      addError(
        errors,
        filePath,
        `${location}.format`,
        `Field '${location}.format' must be "shell_exports" or "json"`
      );
    }
  });
}
function validateRefsConfig(errors, filePath, rawRefs) {
  if (rawRefs === void 0) {
    return;
  }
  if (!isPlainObject(rawRefs)) {
    addError(errors, filePath, "refs", "Field 'refs' must be an object");
    return;
  }
  for (const [name, value] of Object.entries(rawRefs)) {
    if (name.trim().length === 0) {
      addError(errors, filePath, "refs", "Field 'refs' has an empty ref name");
    }
    if (typeof value !== "string" || value.trim().length === 0) {
      addError(errors, filePath, `refs.${name}`, `Field 'refs.${name}' must be a non-empty string`);
    }
  }
}
function validateRepoResolversConfig(errors, filePath, rawResolvers) {
  if (rawResolvers === void 0) {
    return;
  }
  if (!Array.isArray(rawResolvers)) {
    addError(errors, filePath, "repo_resolvers", "Field 'repo_resolvers' must be an array");
    return;
  }
  const seenNames = /* @__PURE__ */ new Set();
  let defaultCount = 0;
  rawResolvers.forEach((resolver, index) => {
    const location = `repo_resolvers[${index}]`;
    if (!isPlainObject(resolver)) {
      addError(errors, filePath, location, `Field '${location}' must be an object`);
      return;
    }
    const name = resolver.name;
    if (typeof name !== "string" || name.trim().length === 0) {
      addError(
        errors,
        filePath,
        `${location}.name`,
        `Field '${location}.name' must be a non-empty string`
      );
    } else {
      const trimmedName = name.trim();
      if (seenNames.has(trimmedName)) {
        addError(
          errors,
          filePath,
          `${location}.name`,
          `Duplicate repo resolver name '${trimmedName}'`
        );
      }
      seenNames.add(trimmedName);
      if (trimmedName === "default") {
        defaultCount += 1;
        if (resolver.repos !== void 0) {
          addError(
            errors,
            filePath,
            `${location}.repos`,
            "Repo resolver named 'default' must not declare repos"
          );
        }
      }
    }
    const command = resolver.command;
    if (!Array.isArray(command) || !command.every((entry) => typeof entry === "string") || command.length === 0) {
      addError(
        errors,
        filePath,
        `${location}.command`,
        `Field '${location}.command' must be a non-empty string array`
      );
    }
    const repos = resolver.repos;
    if (repos !== void 0 && (!Array.isArray(repos) || repos.length === 0 || !repos.every((entry) => typeof entry === "string" && entry.trim().length > 0))) {
      addError(
        errors,
        filePath,
        `${location}.repos`,
        `Field '${location}.repos' must be a non-empty string array when set`
      );
    }
    if (resolver.config !== void 0 && !isPlainObject(resolver.config)) {
      addError(
        errors,
        filePath,
        `${location}.config`,
        `Field '${location}.config' must be an object when set`
      );
    }
  });
  if (defaultCount > 1) {
    addError(errors, filePath, "repo_resolvers", "Duplicate repo resolver named 'default'");
  }
}
function inferConfigScope(filePath) {
  const globalConfigPath = path52.resolve(getAgentvConfigDir(), "config.yaml");
  const globalLocalConfigPath = path52.resolve(getLocalConfigPath(globalConfigPath));
  const resolvedPath = path52.resolve(filePath);
  if (resolvedPath === globalConfigPath || resolvedPath === globalLocalConfigPath) {
    return "global";
  }
  return filePath.split(/[\\/]/).includes(".agentv") ? "project" : "global";
}
function validateProjects(errors, filePath, projects) {
  projects.forEach((project, index) => {
    const location = `projects[${index}]`;
    if (typeof project !== "object" || project === null || Array.isArray(project)) {
      errors.push({
        severity: "error",
        filePath,
        location,
        message: `Field '${location}' must be an object`
      });
      return;
    }
    const projectRecord = project;
    validateRequiredString(errors, filePath, projectRecord.id, `${location}.id`);
    validateProjectRepoConfig(errors, filePath, projectRecord, location);
    validateProjectResultsConfig(errors, filePath, projectRecord.results, `${location}.results`);
  });
}
function addError(errors, filePath, location, message) {
  errors.push({ severity: "error", filePath, ...location ? { location } : {}, message });
}
function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function validateRequiredString(errors, filePath, value, location) {
  if (typeof value !== "string" || value.trim().length === 0) {
    errors.push({
      severity: "error",
      filePath,
      location,
      message: `Field '${location}' must be a non-empty string`
    });
  }
}
function validateOptionalString(errors, filePath, value, location) {
  if (value !== void 0 && (typeof value !== "string" || value.trim().length === 0)) {
    addError(errors, filePath, location, `Field '${location}' must be a non-empty string`);
  }
}
function validateProjectRepoConfig(errors, filePath, projectRecord, location) {
  validateRequiredString(errors, filePath, projectRecord.path, `${location}.path`);
  validateOptionalString(errors, filePath, projectRecord.repo, `${location}.repo`);
  validateOptionalString(errors, filePath, projectRecord.branch, `${location}.branch`);
}
function validateResultsConfigBody(errors, filePath, rawResults, location) {
  if (rawResults === void 0) {
    return;
  }
  if (!isPlainObject(rawResults)) {
    addError(errors, filePath, location, `Field '${location}' must be an object`);
    return;
  }
  const r = rawResults;
  if (r.mode !== void 0) {
    addError(
      errors,
      filePath,
      `${location}.mode`,
      `Remove '${location}.mode'; results use '${location}.repo' and '${location}.path'.`
    );
  }
  validateOptionalString(errors, filePath, r.repo, `${location}.repo`);
  validateOptionalString(errors, filePath, r.path, `${location}.path`);
  validateOptionalString(errors, filePath, r.branch, `${location}.branch`);
  if (r.repo === void 0 && r.path === void 0) {
    addError(errors, filePath, location, `Field '${location}' must set repo or path`);
  }
  if (r.auto_push !== void 0 && typeof r.auto_push !== "boolean") {
    addError(
      errors,
      filePath,
      `${location}.auto_push`,
      `Field '${location}.auto_push' must be a boolean`
    );
  }
}
function validateProjectResultsConfig(errors, filePath, rawResults, location) {
  validateResultsConfigBody(errors, filePath, rawResults, location);
}
function validateResultsConfig(errors, filePath, rawResults, location) {
  validateResultsConfigBody(errors, filePath, rawResults, location);
}
function isObject4(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
async function validateFileReferences(evalFilePath) {
  const errors = [];
  const absolutePath = path62.resolve(evalFilePath);
  const gitRoot = await findGitRoot(absolutePath);
  if (!gitRoot) {
    errors.push({
      severity: "error",
      filePath: absolutePath,
      message: "Cannot validate file references: git repository root not found"
    });
    return errors;
  }
  const searchRoots = buildSearchRoots(absolutePath, gitRoot);
  let parsed;
  try {
    const content = await readFile6(absolutePath, "utf8");
    parsed = parseYamlValue(content);
  } catch {
    return errors;
  }
  if (!isObject4(parsed)) {
    return errors;
  }
  const cases = parsed.tests;
  if (!Array.isArray(cases)) {
    return errors;
  }
  for (let i = 0; i < cases.length; i++) {
    const evalCase = cases[i];
    if (!isObject4(evalCase)) {
      continue;
    }
    const inputField = evalCase.input;
    if (Array.isArray(inputField)) {
      await validateMessagesFileRefs(
        inputField,
        `tests[${i}].input`,
        searchRoots,
        absolutePath,
        errors
      );
    }
    const expectedOutputField = evalCase.expected_output;
    if (Array.isArray(expectedOutputField)) {
      await validateMessagesFileRefs(
        expectedOutputField,
        `tests[${i}].expected_output`,
        searchRoots,
        absolutePath,
        errors
      );
    }
  }
  return errors;
}
async function validateMessagesFileRefs(messages, location, searchRoots, filePath, errors) {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (!isObject4(message)) {
      continue;
    }
    const content = message.content;
    if (typeof content === "string") {
      continue;
    }
    if (!Array.isArray(content)) {
      continue;
    }
    for (let j = 0; j < content.length; j++) {
      const contentItem = content[j];
      if (!isObject4(contentItem)) {
        continue;
      }
      const type = contentItem.type;
      if (type !== "file") {
        continue;
      }
      const value = contentItem.value;
      if (typeof value !== "string") {
        errors.push({
          severity: "error",
          filePath,
          location: `${location}[${i}].content[${j}].value`,
          message: "File reference must have a 'value' field with the file path"
        });
        continue;
      }
      const { resolvedPath } = await resolveFileReference(value, searchRoots);
      if (!resolvedPath) {
        errors.push({
          severity: "error",
          filePath,
          location: `${location}[${i}].content[${j}]`,
          message: `Referenced file not found: ${value}`
        });
      } else {
        try {
          const fileContent = await readFile6(resolvedPath, "utf8");
          if (fileContent.trim().length === 0) {
            errors.push({
              severity: "warning",
              filePath,
              location: `${location}[${i}].content[${j}]`,
              message: `Referenced file is empty: ${value}`
            });
          }
        } catch (error) {
          errors.push({
            severity: "error",
            filePath,
            location: `${location}[${i}].content[${j}]`,
            message: `Cannot read referenced file: ${value} (${error.message})`
          });
        }
      }
    }
  }
}
function isObject5(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
async function validateWorkspacePaths(evalFilePath) {
  const errors = [];
  const absolutePath = path72.resolve(evalFilePath);
  const evalDir = path72.dirname(absolutePath);
  let parsed;
  try {
    const content = await readFile7(absolutePath, "utf8");
    parsed = parseYamlValue(content);
  } catch {
    return errors;
  }
  if (!isObject5(parsed)) return errors;
  const workspaceRaw = parsed.workspace;
  if (workspaceRaw === void 0 || workspaceRaw === null) return errors;
  if (typeof workspaceRaw === "string") {
    const workspaceFilePath = path72.resolve(evalDir, workspaceRaw);
    try {
      const wsContent = await readFile7(workspaceFilePath, "utf8");
      const wsParsed = parseYamlValue(wsContent);
      if (isObject5(wsParsed)) {
        const wsDir = path72.dirname(workspaceFilePath);
        await validateWorkspaceObject(wsParsed, wsDir, absolutePath, "workspace", errors);
      }
    } catch {
    }
  } else if (isObject5(workspaceRaw)) {
    await validateWorkspaceObject(workspaceRaw, evalDir, absolutePath, "workspace", errors);
  }
  return errors;
}
async function validateWorkspaceObject(obj, baseDir, evalFilePath, location, errors) {
  const template = obj.template;
  if (typeof template === "string") {
    const templatePath = path72.isAbsolute(template) ? template : path72.resolve(baseDir, template);
    if (!await fileExists3(templatePath)) {
      errors.push({
        severity: "error",
        filePath: evalFilePath,
        location: `${location}.template`,
        message: `Template path not found: ${template} (resolved to ${templatePath})`
      });
    }
  }
  const hooks = obj.hooks;
  if (!isObject5(hooks)) return;
  for (const hookName of ["before_all", "before_each", "after_each", "after_all"]) {
    const hook = hooks[hookName];
    if (!isObject5(hook)) continue;
    if ("script" in hook) {
      errors.push({
        severity: "error",
        filePath: evalFilePath,
        location: `${location}.hooks.${hookName}.script`,
        message: "Workspace hook field 'script' has been removed. Use 'command' instead."
      });
      continue;
    }
    const hookCwdRaw = typeof hook.cwd === "string" ? hook.cwd : void 0;
    const hookCwd = hookCwdRaw ? path72.isAbsolute(hookCwdRaw) ? hookCwdRaw : path72.resolve(baseDir, hookCwdRaw) : baseDir;
    const command = hook.command;
    if (!Array.isArray(command)) continue;
    for (let i = 0; i < command.length; i++) {
      const arg = command[i];
      if (typeof arg !== "string") continue;
      if (!looksLikeFilePath(arg)) continue;
      const resolved = path72.isAbsolute(arg) ? arg : path72.resolve(hookCwd, arg);
      if (!await fileExists3(resolved)) {
        errors.push({
          severity: "error",
          filePath: evalFilePath,
          location: `${location}.hooks.${hookName}.command[${i}]`,
          message: `Hook script not found: ${arg} (resolved to ${resolved})`
        });
      }
    }
  }
}
function looksLikeFilePath(arg) {
  if (arg.startsWith("./") || arg.startsWith("../")) return true;
  const scriptExtensions = [
    ".mjs",
    ".cjs",
    ".js",
    ".ts",
    ".sh",
    ".bash",
    ".zsh",
    ".py",
    ".rb",
    ".pl"
  ];
  return scriptExtensions.some((ext) => arg.endsWith(ext));
}
async function fileExists3(filePath) {
  try {
    await access4(filePath);
    return true;
  } catch {
    return false;
  }
}

// src/commands/eval/targets.ts
var ANSI_YELLOW3 = "\x1B[33m";
var ANSI_RED3 = "\x1B[31m";
var ANSI_RESET3 = "\x1B[0m";
function isTTY() {
  return process.stdout.isTTY ?? false;
}
function resolveUseTarget(name, definitions, env, targetsFilePath) {
  const maxDepth = 5;
  let current = definitions.find((d) => d.name === name);
  if (!current) {
    const available = listTargetNames(definitions).join(", ");
    throw new Error(
      `Target '${name}' not found in ${targetsFilePath}. Available targets: ${available}`
    );
  }
  for (let depth = 0; depth < maxDepth; depth++) {
    const useTarget = current.use_target;
    if (useTarget === void 0 || useTarget === null) break;
    const raw = String(useTarget).trim();
    if (raw.length === 0) break;
    const envMatch = raw.match(/^\$\{\{\s*([A-Z0-9_]+)\s*\}\}$/i);
    const resolved = envMatch ? env[envMatch[1]] ?? "" : raw;
    if (resolved.trim().length === 0) break;
    const next = definitions.find((d) => d.name === resolved.trim());
    if (!next) {
      const available = listTargetNames(definitions).join(", ");
      throw new Error(
        `Target '${name}' use_target '${resolved.trim()}' not found in ${targetsFilePath}. Available targets: ${available}`
      );
    }
    current = next;
  }
  return current;
}
async function readTestSuiteTarget(testFilePath) {
  const metadata = await readTestSuiteMetadata(testFilePath);
  return metadata.target;
}
function pickTargetName(options) {
  const cliName = options.cliTargetName?.trim();
  if (cliName && cliName !== "default") {
    return { name: cliName, source: "cli" };
  }
  const fileName = options.fileTargetName?.trim();
  if (fileName && fileName.length > 0) {
    return { name: fileName, source: "test-file" };
  }
  return { name: "default", source: "default" };
}
function withModelOverride(target, modelOverride) {
  const model = modelOverride?.trim();
  return model && model.length > 0 ? { ...target, model } : target;
}
function overlayTargetDefinition(params) {
  const { spec, definitions, env, targetsFilePath } = params;
  if (!spec?.definition) {
    return void 0;
  }
  if (spec.extends) {
    const base = resolveUseTarget(spec.extends, definitions, env, targetsFilePath);
    return {
      ...base,
      ...spec.definition,
      name: spec.name
    };
  }
  return spec.definition;
}
function definitionsWithEffectiveTarget(definitions, effective) {
  return [effective, ...definitions.filter((definition) => definition.name !== effective.name)];
}
async function selectTarget(options) {
  const { testFilePath, repoRoot, cwd, explicitTargetsPath, cliTargetName, modelOverride, env } = options;
  const targetsFilePath = await discoverTargetsFile({
    explicitPath: explicitTargetsPath,
    testFilePath,
    repoRoot,
    cwd
  });
  const validationResult = await validateTargetsFile(targetsFilePath);
  const warnings = validationResult.errors.filter((e) => e.severity === "warning");
  const useColors2 = isTTY();
  if (warnings.length > 0) {
    console.warn(`
Warnings in ${targetsFilePath}:`);
    for (const warning of warnings) {
      const location = warning.location ? ` [${warning.location}]` : "";
      const prefix = useColors2 ? `${ANSI_YELLOW3}  \u26A0${ANSI_RESET3}` : "  \u26A0";
      const message = useColors2 ? `${ANSI_YELLOW3}${warning.message}${ANSI_RESET3}` : warning.message;
      console.warn(`${prefix}${location} ${message}`);
    }
    console.warn("");
  }
  const errors = validationResult.errors.filter((e) => e.severity === "error");
  if (errors.length > 0) {
    console.error(`
Errors in ${targetsFilePath}:`);
    for (const error of errors) {
      const location = error.location ? ` [${error.location}]` : "";
      const prefix = useColors2 ? `${ANSI_RED3}  \u2717${ANSI_RESET3}` : "  \u2717";
      const message = useColors2 ? `${ANSI_RED3}${error.message}${ANSI_RESET3}` : error.message;
      console.error(`${prefix}${location} ${message}`);
    }
    throw new Error(`Targets file validation failed with ${errors.length} error(s)`);
  }
  const definitions = await readTargetDefinitions(targetsFilePath);
  const fileTargetSpec = options.fileTargetSpec;
  const fileTargetName = options.fileTargetName ?? fileTargetSpec?.name ?? await readTestSuiteTarget(testFilePath);
  const targetChoice = pickTargetName({ cliTargetName, fileTargetName });
  const overlayDefinition = targetChoice.source === "test-file" ? overlayTargetDefinition({ spec: fileTargetSpec, definitions, env, targetsFilePath }) : void 0;
  const targetDefinition = withModelOverride(
    overlayDefinition ?? resolveUseTarget(targetChoice.name, definitions, env, targetsFilePath),
    modelOverride
  );
  const effectiveDefinitions = overlayDefinition !== void 0 ? definitionsWithEffectiveTarget(definitions, targetDefinition) : definitions;
  try {
    const resolvedTarget = resolveTargetDefinition(targetDefinition, env, testFilePath, {
      emitDeprecationWarnings: false
    });
    return {
      definitions: effectiveDefinitions,
      resolvedTarget,
      targetName: targetChoice.name,
      targetSource: targetChoice.source,
      targetsFilePath,
      ...targetChoice.source === "test-file" && fileTargetSpec?.hooks ? { targetHooks: fileTargetSpec.hooks } : {}
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`Failed to resolve target '${targetChoice.name}': ${message}`);
  }
}
async function selectMultipleTargets(options) {
  const {
    testFilePath,
    repoRoot,
    cwd,
    explicitTargetsPath,
    env,
    targetNames,
    targetRefs,
    modelOverride
  } = options;
  const hooksMap = /* @__PURE__ */ new Map();
  const labelsMap = /* @__PURE__ */ new Map();
  if (targetRefs) {
    for (const ref of targetRefs) {
      if (ref.hooks) {
        hooksMap.set(ref.name, ref.hooks);
      }
      if (ref.label) {
        labelsMap.set(ref.name, ref.label);
      }
    }
  }
  const targetsFilePath = await discoverTargetsFile({
    explicitPath: explicitTargetsPath,
    testFilePath,
    repoRoot,
    cwd
  });
  const validationResult = await validateTargetsFile(targetsFilePath);
  const warnings = validationResult.errors.filter((e) => e.severity === "warning");
  const useColors2 = isTTY();
  if (warnings.length > 0) {
    console.warn(`
Warnings in ${targetsFilePath}:`);
    for (const warning of warnings) {
      const location = warning.location ? ` [${warning.location}]` : "";
      const prefix = useColors2 ? `${ANSI_YELLOW3}  \u26A0${ANSI_RESET3}` : "  \u26A0";
      const message = useColors2 ? `${ANSI_YELLOW3}${warning.message}${ANSI_RESET3}` : warning.message;
      console.warn(`${prefix}${location} ${message}`);
    }
    console.warn("");
  }
  const errors = validationResult.errors.filter((e) => e.severity === "error");
  if (errors.length > 0) {
    console.error(`
Errors in ${targetsFilePath}:`);
    for (const error of errors) {
      const location = error.location ? ` [${error.location}]` : "";
      const prefix = useColors2 ? `${ANSI_RED3}  \u2717${ANSI_RESET3}` : "  \u2717";
      const message = useColors2 ? `${ANSI_RED3}${error.message}${ANSI_RESET3}` : error.message;
      console.error(`${prefix}${location} ${message}`);
    }
    throw new Error(`Targets file validation failed with ${errors.length} error(s)`);
  }
  const fileDefinitions = await readTargetDefinitions(targetsFilePath);
  const definitions = [...fileDefinitions];
  if (targetRefs) {
    for (const ref of targetRefs) {
      if (ref.definition && !fileDefinitions.some((d) => d.name === ref.name)) {
        definitions.push(ref.definition);
      } else if (ref.use_target && !fileDefinitions.some((d) => d.name === ref.name)) {
        definitions.push({ name: ref.name, use_target: ref.use_target });
      }
    }
  }
  const results = [];
  for (const name of targetNames) {
    const targetDefinition = withModelOverride(
      resolveUseTarget(name, definitions, env, targetsFilePath),
      modelOverride
    );
    const hooks = hooksMap.get(name);
    const targetLabel = labelsMap.get(name);
    try {
      const resolvedTarget = resolveTargetDefinition(targetDefinition, env, testFilePath, {
        emitDeprecationWarnings: false
      });
      results.push({
        definitions,
        resolvedTarget,
        targetName: name,
        ...targetLabel ? { targetLabel } : {},
        targetSource: options.targetSource ?? "cli",
        targetsFilePath,
        ...hooks && { targetHooks: hooks }
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`Failed to resolve target '${name}': ${message}`);
    }
  }
  return results;
}

// src/commands/eval/wip-checkpoint.ts
var WIP_CHECKPOINT_INTERVAL_MS = 3e4;
var defaultDependencies = {
  buildWipBranchName,
  deleteWipBranch,
  pushWipCheckpoint,
  setupWipWorktree
};
function warnCheckpointError(context, error) {
  const message = error instanceof Error ? error.message : String(error);
  console.warn(`WIP checkpoint: ${context}: ${message}`);
}
var WipCheckpointLoop = class {
  wipBranch;
  config;
  runDir;
  destinationPath;
  intervalMs;
  deps;
  handle;
  timer;
  checkpointInFlight;
  active = false;
  constructor(params) {
    this.config = params.config;
    this.runDir = params.runDir;
    this.destinationPath = params.destinationPath;
    this.intervalMs = params.intervalMs ?? WIP_CHECKPOINT_INTERVAL_MS;
    this.deps = params.dependencies ?? defaultDependencies;
    this.wipBranch = this.deps.buildWipBranchName(params.runDir);
  }
  async start() {
    try {
      this.handle = await this.deps.setupWipWorktree({
        config: this.config,
        wipBranch: this.wipBranch
      });
    } catch (err) {
      warnCheckpointError("failed to set up WIP worktree", err);
      return;
    }
    this.active = true;
    this.timer = setInterval(() => {
      this.runCheckpointIfIdle();
    }, this.intervalMs);
    this.timer.unref?.();
  }
  runCheckpointIfIdle() {
    if (!this.active || this.checkpointInFlight) return;
    this.checkpointInFlight = this.checkpoint().catch((err) => warnCheckpointError("push failed", err)).finally(() => {
      this.checkpointInFlight = void 0;
    });
  }
  async checkpoint() {
    if (!this.handle) return;
    await this.deps.pushWipCheckpoint({
      handle: this.handle,
      sourceDir: this.runDir,
      destinationPath: this.destinationPath
    });
  }
  /** Stop the loop and clean up the local worktree. Does NOT delete the remote WIP branch. */
  async stop() {
    this.active = false;
    if (this.timer !== void 0) {
      clearInterval(this.timer);
      this.timer = void 0;
    }
    await this.checkpointInFlight;
    if (this.handle) {
      await this.handle.cleanup().catch((err) => warnCheckpointError("worktree cleanup failed", err));
      this.handle = void 0;
    }
  }
  /**
   * Stop the loop and delete the remote WIP branch.
   * Call after a successful run to keep the results repo tidy.
   */
  async stopAndDeleteWipBranch() {
    await this.stop();
    try {
      await this.deps.deleteWipBranch({ config: this.config, wipBranch: this.wipBranch });
    } catch (err) {
      warnCheckpointError(`failed to delete remote branch ${this.wipBranch}`, err);
    }
  }
};

// src/commands/eval/run-eval.ts
var DEFAULT_WORKERS = 3;
var loadCjsModule = createNodeRequire(import.meta.url);
var micromatch = loadCjsModule("micromatch");
async function loadCliEvalSuite(testFilePath, repoRoot, options) {
  if (path12.extname(testFilePath).toLowerCase() === ".json") {
    const adapterSuite = readAgentSkillsEvalsFile(testFilePath);
    return loadTestSuiteFromYamlObject(
      testFilePath,
      agentSkillsToAgentVYamlObject(adapterSuite),
      repoRoot,
      options
    );
  }
  return loadTestSuite(testFilePath, repoRoot, options);
}
function shouldSkipExistingResultForResume(result, rerunFailed) {
  if (rerunFailed) {
    return result.executionStatus === "ok";
  }
  return result.executionStatus !== "execution_error";
}
function hasNonEmptyString(value) {
  return typeof value === "string" && value.trim().length > 0;
}
function objectRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : void 0;
}
function resultProjectionDimensions(result) {
  const projectionIdentity = objectRecord(
    result.projectionIdentity
  );
  return objectRecord(projectionIdentity?.dimensions);
}
function hasCanonicalResultIdentity(result) {
  const source = result.source;
  const dimensions = resultProjectionDimensions(result);
  const resultRecord = result;
  return hasNonEmptyString(dimensions?.evalPath) || hasNonEmptyString(dimensions?.suite) || hasNonEmptyString(dimensions?.promptId) || hasNonEmptyString(resultRecord.evalPath) || hasNonEmptyString(source?.evalFileRepoPath) || hasNonEmptyString(source?.evalFilePath) || hasNonEmptyString(source?.evalFileAbsolutePath) || hasNonEmptyString(result.suite) || hasNonEmptyString(result.prompt?.id);
}
function resultResumeIdentityEntry(result) {
  if (hasCanonicalResultIdentity(result)) {
    return {
      kind: "precise",
      key: buildEvaluationResultTargetKey(result),
      result
    };
  }
  return {
    kind: "legacy",
    key: buildTestTargetKey(result.testId, result.target, result.variant),
    result
  };
}
function latestResumeIdentityEntries(results) {
  const latestByIdentity = /* @__PURE__ */ new Map();
  for (const result of results) {
    const entry = resultResumeIdentityEntry(result);
    latestByIdentity.set(`${entry.kind}:${entry.key}`, entry);
  }
  return Array.from(latestByIdentity.values());
}
function createResumeIdentityMatcher() {
  return { preciseKeys: /* @__PURE__ */ new Set(), legacyKeys: /* @__PURE__ */ new Set() };
}
function addResumeIdentityEntry(matcher, entry) {
  if (entry.kind === "legacy") {
    matcher.legacyKeys.add(entry.key);
    return;
  }
  matcher.preciseKeys.add(entry.key);
}
function uniqueStrings(values) {
  return Array.from(new Set(values.filter(hasNonEmptyString)));
}
function buildPlannedResumeIdentityKeys(test, target, variant) {
  const keys = /* @__PURE__ */ new Set([buildEvalTestTargetKey(test, target, variant)]);
  const evalPaths = uniqueStrings([
    test.source?.evalFileRepoPath,
    test.source?.evalFilePath,
    test.source?.evalFileAbsolutePath
  ]);
  const suites = Array.from(/* @__PURE__ */ new Set([test.suite ?? null, null]));
  const promptIds = Array.from(/* @__PURE__ */ new Set([test.prompt?.id ?? null, null]));
  for (const evalPath of evalPaths) {
    for (const suite of suites) {
      for (const promptId of promptIds) {
        keys.add(
          JSON.stringify({
            eval_path: evalPath,
            suite,
            test_id: test.id ?? "unknown",
            prompt_id: promptId,
            target: target ?? "unknown",
            variant: variant ?? null
          })
        );
      }
    }
  }
  return Array.from(keys);
}
function resumeIdentityMatches(matcher, test, target, variant) {
  return buildPlannedResumeIdentityKeys(test, target, variant).some(
    (key) => matcher.preciseKeys.has(key)
  ) || matcher.legacyKeys.has(buildTestTargetKey(test.id, target, variant));
}
function normalizeBoolean(value) {
  return value === true;
}
function normalizeString(value) {
  if (typeof value !== "string") {
    return void 0;
  }
  const trimmed = value.trim();
  return trimmed.length > 0 ? trimmed : void 0;
}
function resultsRepoOverride(value) {
  if (!value) {
    return {};
  }
  if (value === "current" || value === "." || value.startsWith("./") || value.startsWith("../") || value.startsWith("/") || value.startsWith("~/") || value.startsWith("~\\") || /^[A-Za-z]:[/\\]/.test(value)) {
    return { repo_path: value === "current" ? "." : value };
  }
  return { repo: value };
}
function normalizeOptionalNumber(value) {
  if (typeof value === "number" && Number.isFinite(value)) {
    return value;
  }
  if (typeof value === "string") {
    const parsed = Number.parseInt(value, 10);
    if (!Number.isNaN(parsed)) {
      return parsed;
    }
  }
  return void 0;
}
function normalizeStringArray(value) {
  if (Array.isArray(value)) {
    return value.filter((v) => typeof v === "string" && v.trim().length > 0);
  }
  return [];
}
function normalizeFilter(value) {
  if (Array.isArray(value)) {
    const filters = normalizeStringArray(value);
    if (filters.length === 0) {
      return void 0;
    }
    return filters.length === 1 ? filters[0] : filters;
  }
  return normalizeString(value);
}
function normalizeSourceMetadataByEvalFile(value) {
  if (value instanceof Map) {
    const entries = [...value.entries()].filter(
      (entry) => typeof entry[0] === "string" && typeof entry[1] === "object" && entry[1] !== null && !Array.isArray(entry[1])
    );
    return entries.length > 0 ? new Map(entries.map(([key, metadata]) => [path12.resolve(key), metadata])) : void 0;
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const entries = Object.entries(value).filter(
      (entry) => typeof entry[1] === "object" && entry[1] !== null && !Array.isArray(entry[1])
    );
    return entries.length > 0 ? new Map(entries.map(([key, metadata]) => [path12.resolve(key), metadata])) : void 0;
  }
  return void 0;
}
var LEGACY_OUTPUT_FILE_EXTENSIONS = /* @__PURE__ */ new Set([
  ".jsonl",
  ".json",
  ".xml",
  ".yaml",
  ".yml",
  ".html",
  ".htm"
]);
function looksLikeLegacyOutputFilePath(value) {
  return LEGACY_OUTPUT_FILE_EXTENSIONS.has(path12.extname(value).toLowerCase());
}
function outputFileMigrationMessage(value) {
  const ext = path12.extname(value).toLowerCase();
  const removalHint = ext === ".xml" ? "JUnit XML export from agentv eval has been removed." : "Flat result file export from agentv eval has been removed.";
  return `--output expects a run directory, not a file path: ${value}
${removalHint} Set --output <dir> for the canonical run artifacts; AgentV always writes <dir>/${RESULT_INDEX_FILENAME}.`;
}
function artifactsMigrationMessage(artifactsDir, outputDir) {
  const lines = [`--artifacts was removed from agentv eval. Use --output ${artifactsDir} instead.`];
  if (outputDir && looksLikeLegacyOutputFilePath(outputDir)) {
    const ext = path12.extname(outputDir).toLowerCase();
    lines.push(
      ext === ".xml" ? "JUnit XML export from agentv eval has been removed." : "Flat result file export from agentv eval has been removed."
    );
    lines.push(`Migration example: --output ${artifactsDir}`);
  }
  return lines.join("\n");
}
function matchesTagFilters(fileTags, includeTags, excludeTags) {
  const tags = new Set(fileTags ?? []);
  if (includeTags.length > 0) {
    for (const required of includeTags) {
      if (!tags.has(required)) return false;
    }
  }
  for (const excluded of excludeTags) {
    if (tags.has(excluded)) return false;
  }
  return true;
}
function splitCliTags(value) {
  const selectionTags = [];
  const tagMap = {};
  for (const entry of normalizeStringArray(value)) {
    const eq = entry.indexOf("=");
    if (eq === -1) {
      selectionTags.push(entry);
      continue;
    }
    const key = entry.slice(0, eq).trim();
    if (key.length === 0) {
      continue;
    }
    tagMap[key] = entry.slice(eq + 1).trim();
  }
  return { selectionTags, tagMap };
}
function resolveEffectiveTags(layers) {
  const merged = {
    ...layers.evalTags ?? {},
    ...layers.configTags ?? {},
    ...layers.cliTags ?? {}
  };
  return Object.keys(merged).length > 0 ? merged : void 0;
}
function syncTagsExperiment(resolvedTags, options) {
  if (!resolvedTags) {
    return void 0;
  }
  if (!options.experimentIsIntentional && resolvedTags.experiment === void 0) {
    return resolvedTags;
  }
  return { ...resolvedTags, experiment: options.normalizedExperiment };
}
function resolveExperimentNamespace(params) {
  if (params.cliExperiment) {
    return { experiment: params.cliExperiment };
  }
  if (params.tagsExperiment) {
    return { experiment: params.tagsExperiment };
  }
  return { experiment: params.resultGroupName };
}
function normalizeOutputMessages(cliValue) {
  if (cliValue === void 0) {
    return 1;
  }
  if (cliValue === "all") {
    return "all";
  }
  const parsed = Number.parseInt(cliValue, 10);
  if (Number.isNaN(parsed) || !Number.isInteger(parsed) || parsed < 1) {
    console.warn(
      `Warning: Invalid --output-messages value '${cliValue}'. Must be a positive integer or 'all'. Defaulting to 1.`
    );
    return 1;
  }
  return parsed;
}
function trimOutputMessages(output, _outputMessages) {
  return output;
}
function prepareResultForJsonl(result, options) {
  return {
    ...result,
    output: trimOutputMessages(result.output, options.outputMessages)
  };
}
function normalizeOptions(rawOptions, config, yamlExecution) {
  const cliWorkers = normalizeOptionalNumber(rawOptions.workers);
  const configWorkers = config?.execution?.maxConcurrency ?? yamlExecution?.max_concurrency;
  const workers = cliWorkers ?? configWorkers ?? 0;
  const cliOutputDir = normalizeString(rawOptions.output);
  const rawTarget = rawOptions.target;
  let cliTargets = [];
  let singleTarget;
  if (Array.isArray(rawTarget)) {
    cliTargets = rawTarget.filter((v) => typeof v === "string" && v.trim().length > 0);
    singleTarget = cliTargets.length === 1 ? cliTargets[0] : void 0;
  } else if (typeof rawTarget === "string") {
    const trimmed = rawTarget.trim();
    if (trimmed.length > 0 && trimmed !== "default") {
      cliTargets = [trimmed];
      singleTarget = trimmed;
    }
  }
  const cliAgentTimeout = normalizeOptionalNumber(rawOptions.agentTimeout);
  const cliThreshold = normalizeOptionalNumber(rawOptions.threshold);
  const cliBudgetUsd = normalizeOptionalNumber(rawOptions.budgetUsd);
  const configAgentTimeoutSeconds = config?.execution?.agentTimeoutMs != null ? config.execution.agentTimeoutMs / 1e3 : void 0;
  const cliMaxRetries = normalizeOptionalNumber(rawOptions.maxRetries);
  const configMaxRetries = config?.execution?.maxRetries;
  const cliCachePath = normalizeString(rawOptions.cachePath);
  const cliCache = normalizeBoolean(rawOptions.cache) || cliCachePath !== void 0;
  const cliNoCache = normalizeBoolean(rawOptions.noCache);
  const configCacheEnabled = config?.cache?.enabled;
  const configCachePath = normalizeString(config?.cache?.path);
  const cliOut = normalizeString(rawOptions.out);
  const configOutputDir = normalizeString(config?.output?.dir);
  const cliWorkspacePath = normalizeString(rawOptions.workspacePath);
  const configWorkspacePath = normalizeString(yamlExecution?.workspace_path);
  const workspacePath = cliWorkspacePath ?? configWorkspacePath;
  const resultsRepo = normalizeString(rawOptions.resultsRepo);
  const resultsPush = normalizeBoolean(rawOptions.resultsPush);
  const resultsNoPush = normalizeBoolean(rawOptions.noResultsPush);
  const resultsRequirePush = normalizeBoolean(rawOptions.resultsRequirePush);
  const resultsOverrides = {
    ...resultsRepoOverride(resultsRepo),
    ...normalizeString(rawOptions.resultsBranch) !== void 0 && {
      branch: normalizeString(rawOptions.resultsBranch)
    },
    ...normalizeString(rawOptions.resultsRemote) !== void 0 && {
      remote: normalizeString(rawOptions.resultsRemote)
    },
    ...resultsPush || resultsNoPush ? { auto_push: resultsPush && !resultsNoPush } : {},
    ...resultsRequirePush ? { require_push: true } : {}
  };
  const cliTags = splitCliTags(rawOptions.tag);
  return {
    target: singleTarget,
    cliTargets,
    targetsPath: normalizeString(rawOptions.targets),
    filter: normalizeFilter(rawOptions.filter),
    workers: workers > 0 ? workers : void 0,
    outputDir: cliOutputDir ?? configOutputDir,
    removedOut: cliOut,
    agentTimeoutSeconds: cliAgentTimeout ?? configAgentTimeoutSeconds,
    cliAgentTimeoutSeconds: cliAgentTimeout,
    maxRetries: cliMaxRetries ?? configMaxRetries ?? 2,
    cache: cliCache,
    cachePath: cliCachePath,
    noCache: cliNoCache,
    tsConfigCache: configCacheEnabled,
    tsConfigCachePath: configCachePath,
    // Boolean OR: config `true` cannot be overridden to `false` from CLI.
    // Intentional — there are no --no-verbose / --no-keep-workspaces flags.
    // Precedence: CLI > YAML config > TS config
    verbose: normalizeBoolean(rawOptions.verbose) || yamlExecution?.verbose === true || config?.execution?.verbose === true,
    retryErrors: normalizeString(rawOptions.retryErrors),
    resume: normalizeBoolean(rawOptions.resume) || normalizeString(rawOptions.rerunFailed) !== void 0,
    rerunFailed: normalizeString(rawOptions.rerunFailed) !== void 0,
    rerunFailedSource: normalizeString(rawOptions.rerunFailed),
    workspacePath,
    // Precedence: CLI > YAML config > TS config
    keepWorkspaces: normalizeBoolean(rawOptions.keepWorkspaces) || yamlExecution?.keep_workspaces === true || config?.execution?.keepWorkspaces === true,
    artifacts: normalizeString(rawOptions.artifacts),
    outputFormat: normalizeString(rawOptions.outputFormat),
    graderTarget: normalizeString(rawOptions.graderTarget),
    model: normalizeString(rawOptions.model),
    outputMessages: normalizeOutputMessages(normalizeString(rawOptions.outputMessages)),
    threshold: cliThreshold,
    cliThreshold,
    tags: cliTags.selectionTags,
    excludeTags: normalizeStringArray(rawOptions.excludeTag),
    tagMap: cliTags.tagMap,
    transcript: normalizeString(rawOptions.transcript),
    recordReplay: normalizeString(rawOptions.recordReplay),
    recordReplayVariant: normalizeString(rawOptions.recordReplayVariant),
    experiment: normalizeString(rawOptions.experiment),
    budgetUsd: cliBudgetUsd,
    cliBudgetUsd,
    sourceMetadataByEvalFile: normalizeSourceMetadataByEvalFile(
      rawOptions.sourceMetadataByEvalFile
    ),
    resultsOverrides: Object.keys(resultsOverrides).length > 0 ? resultsOverrides : void 0
  };
}
function withSourceMetadata(result, testFilePath, options) {
  const sourceMetadata = options.sourceMetadataByEvalFile?.get(path12.resolve(testFilePath));
  if (!sourceMetadata) {
    return result;
  }
  return {
    ...result,
    metadata: {
      ...result.metadata,
      ...sourceMetadata
    }
  };
}
async function ensureFileExists(filePath, description) {
  try {
    await access5(filePath, constants4.F_OK);
  } catch {
    throw new Error(`${description} not found: ${filePath}`);
  }
}
function deriveEvalResultGroupName(evalFilePath) {
  if (!evalFilePath) {
    return "eval";
  }
  return path12.basename(evalFilePath).replace(/\.eval\.ya?ml$/i, "").replace(/\.ya?ml$/i, "").replace(/[^A-Za-z0-9._-]/g, "-") || "eval";
}
var CLI_RUNTIME_SOURCE_OPTION_KEYS = [
  "target",
  "targets",
  "filter",
  "tag",
  "excludeTag",
  "workers",
  "dryRun",
  "dryRunDelay",
  "dryRunDelayMin",
  "dryRunDelayMax",
  "agentTimeout",
  "maxRetries",
  "cache",
  "cachePath",
  "noCache",
  "graderTarget",
  "model",
  "threshold",
  "budgetUsd",
  "transcript",
  "recordReplay",
  "recordReplayVariant",
  "workspacePath"
];
function hasCliRuntimeSource(rawOptions) {
  return CLI_RUNTIME_SOURCE_OPTION_KEYS.some((key) => {
    const value = rawOptions[key];
    if (Array.isArray(value)) {
      return value.some((entry) => typeof entry === "string" && entry.trim().length > 0);
    }
    if (typeof value === "string") {
      return value.trim().length > 0 && value.trim() !== "default";
    }
    if (typeof value === "number") {
      return Number.isFinite(value) && value !== 0;
    }
    return value === true;
  });
}
function toRuntimeSourcePath(cwd, filePath) {
  const trimmed = filePath?.trim();
  if (!trimmed) {
    return void 0;
  }
  const resolved = path12.isAbsolute(trimmed) ? trimmed : path12.resolve(cwd, trimmed);
  const relative = path12.relative(cwd, resolved);
  const displayPath = relative && !relative.startsWith("..") && !path12.isAbsolute(relative) ? relative : trimmed;
  return displayPath.split(path12.sep).join("/");
}
function uniqueRuntimeSourcePaths(values) {
  return [...new Set([...values].filter((value) => Boolean(value)))].sort();
}
function testSourceEvalPath(cwd, test) {
  return toRuntimeSourcePath(cwd, test.source?.evalFileRepoPath) ?? toRuntimeSourcePath(cwd, test.source?.evalFileAbsolutePath) ?? toRuntimeSourcePath(cwd, test.source?.evalFilePath);
}
function testSourceEvalPathForComparison(test) {
  const sourcePath = test.source?.evalFileAbsolutePath ?? test.source?.evalFilePath;
  return sourcePath ? path12.resolve(sourcePath) : void 0;
}
function buildRuntimeConfigSource(params) {
  const inlineFingerprints = /* @__PURE__ */ new Set();
  let hasInlineExperiment = false;
  let hasDefaultRuntime = false;
  for (const activeTestFile of params.activeTestFiles) {
    const experimentMetadata = params.fileMetadata.get(activeTestFile)?.options.experimentMetadata;
    if (experimentMetadata) {
      hasInlineExperiment = true;
      inlineFingerprints.add(experimentMetadata.fingerprint ?? activeTestFile);
    } else {
      hasDefaultRuntime = true;
    }
  }
  if (hasInlineExperiment && params.hasCliRuntimeConfig || hasInlineExperiment && hasDefaultRuntime || inlineFingerprints.size > 1) {
    return "mixed";
  }
  if (params.hasCliRuntimeConfig) {
    return "cli_flags";
  }
  if (hasInlineExperiment) {
    return "inline_experiment";
  }
  return "defaults";
}
function buildRuntimeSourceMetadata(params) {
  const activeEvalFiles = uniqueRuntimeSourcePaths(
    params.activeTestFiles.map((filePath) => toRuntimeSourcePath(params.cwd, filePath))
  );
  const activeResolvedFiles = new Set(
    params.activeTestFiles.map((filePath) => path12.resolve(filePath))
  );
  const sourceEvalFiles = uniqueRuntimeSourcePaths(
    params.sourceTests.map((test) => testSourceEvalPath(params.cwd, test))
  );
  const hasImportedSuite = params.sourceTests.some((test) => test.source?.importedSuiteName);
  const hasNonActiveSourceFile = params.sourceTests.some((test) => {
    const sourceFile = testSourceEvalPathForComparison(test);
    return sourceFile ? !activeResolvedFiles.has(sourceFile) : false;
  });
  const isWrapperEval = params.activeTestFiles.length === 1 && (hasImportedSuite || hasNonActiveSourceFile);
  const wrapperEvalFile = isWrapperEval ? toRuntimeSourcePath(params.cwd, params.activeTestFiles[0]) : void 0;
  const evalFiles = sourceEvalFiles.length > 0 ? sourceEvalFiles : activeEvalFiles;
  return {
    schema_version: "agentv.runtime_source.v1",
    config_source: buildRuntimeConfigSource({
      activeTestFiles: params.activeTestFiles,
      fileMetadata: params.fileMetadata,
      hasCliRuntimeConfig: params.hasCliRuntimeConfig
    }),
    eval_files: evalFiles,
    ...wrapperEvalFile && { wrapper_eval_file: wrapperEvalFile }
  };
}
function resolveExperimentForRun(explicitExperiment) {
  return explicitExperiment ? { name: explicitExperiment } : {};
}
function applyExperimentOptions(options, experiment) {
  if (!experiment) {
    return options;
  }
  const experimentTargetRefs = buildExperimentTargetRefs(experiment);
  const experimentTargetNames = experimentTargetRefs?.map((target) => target.name) ?? [];
  const experimentTarget = experiment.target && experiment.target.trim().length > 0 ? experiment.target : void 0;
  const experimentTargets = options.cliTargets.length === 0 ? experimentTargetNames.length > 0 ? experimentTargetNames : experimentTarget ? [experimentTarget] : void 0 : void 0;
  return {
    ...options,
    target: options.target,
    agentTimeoutSeconds: options.agentTimeoutSeconds ?? experiment.timeoutSeconds,
    workspacePath: options.workspacePath,
    budgetUsd: options.budgetUsd ?? experiment.budgetUsd,
    threshold: options.threshold ?? experiment.threshold,
    experimentConfig: experiment,
    experimentMetadata: buildExperimentArtifactMetadata(experiment),
    experimentTargets,
    experimentTargetRefs: options.cliTargets.length === 0 ? experimentTargetRefs : void 0,
    targetModelOverride: options.targetModelOverride ?? experiment.model,
    experimentTrialsConfig: buildExperimentTrialsConfig(experiment)
  };
}
function buildExperimentTargetRefs(experiment) {
  if (!experiment.targets || experiment.targets.length === 0) {
    return void 0;
  }
  return experiment.targets.map((target) => {
    if (typeof target === "string") {
      return { name: target };
    }
    return {
      name: target.name,
      ...target.useTarget !== void 0 && { use_target: target.useTarget },
      ...target.hooks !== void 0 && {
        hooks: target.hooks
      }
    };
  });
}
function buildExperimentTrialsConfig(experiment) {
  if (experiment.repeat) {
    if (experiment.repeat.count <= 1) {
      return void 0;
    }
    return {
      count: experiment.repeat.count,
      strategy: experiment.repeat.strategy,
      ...experiment.repeat.costLimitUsd !== void 0 && {
        costLimitUsd: experiment.repeat.costLimitUsd
      },
      ...experiment.repeat.earlyExit !== void 0 && { earlyExit: experiment.repeat.earlyExit }
    };
  }
  return void 0;
}
function buildRunOverrideTrialsConfig(run) {
  const repeat = run?.repeat;
  if (!repeat || repeat.count <= 1) {
    return void 0;
  }
  return {
    count: repeat.count,
    strategy: repeat.strategy,
    ...repeat.costLimitUsd !== void 0 && { costLimitUsd: repeat.costLimitUsd },
    ...repeat.earlyExit !== void 0 && { earlyExit: repeat.earlyExit }
  };
}
function resolveEffectiveRunPolicy(params) {
  const { test, options, defaultTrialsConfig, defaultThreshold, defaultTimeoutSeconds } = params;
  const run = test.run;
  const threshold = options.cliThreshold ?? run?.threshold ?? test.threshold ?? defaultThreshold;
  const timeoutSeconds = options.cliAgentTimeoutSeconds ?? run?.timeoutSeconds ?? defaultTimeoutSeconds;
  const budgetUsd = run?.budgetUsd ?? params.defaultBudgetUsd;
  const trialsConfig = buildRunOverrideTrialsConfig(run) ?? defaultTrialsConfig;
  return {
    ...trialsConfig !== void 0 && { trialsConfig },
    ...threshold !== void 0 && { threshold },
    ...timeoutSeconds !== void 0 && { timeoutSeconds },
    ...budgetUsd !== void 0 && { budgetUsd },
    hasScopedOverride: run !== void 0 || test.threshold !== void 0
  };
}
function runPolicyKey(policy) {
  return JSON.stringify({
    trialsConfig: policy.trialsConfig,
    threshold: policy.threshold,
    timeoutSeconds: policy.timeoutSeconds,
    budgetUsd: policy.budgetUsd
  });
}
function groupTestsByRunPolicy(params) {
  const groups = /* @__PURE__ */ new Map();
  for (const test of params.tests) {
    const policy = resolveEffectiveRunPolicy({
      test,
      options: params.options,
      defaultTrialsConfig: params.defaultTrialsConfig,
      defaultThreshold: params.defaultThreshold,
      defaultTimeoutSeconds: params.defaultTimeoutSeconds,
      defaultBudgetUsd: params.defaultBudgetUsd
    });
    const key = runPolicyKey(policy);
    const existing = groups.get(key);
    if (existing) {
      existing.tests.push(test);
    } else {
      groups.set(key, { policy, tests: [test] });
    }
  }
  return [...groups.values()];
}
function matchesTestFilter(id, filter) {
  return typeof filter === "string" ? micromatch.isMatch(id, filter) : filter.some((pattern) => micromatch.isMatch(id, pattern));
}
function createProgressReporter(maxWorkers, options) {
  const display = new ProgressDisplay(maxWorkers, options);
  return {
    isInteractive: display.isInteractiveMode(),
    start: () => display.start(),
    setTotal: (total) => display.setTotalTests(total),
    update: (workerId, progress) => display.updateWorker({ ...progress, workerId }),
    finish: () => display.finish(),
    addLogPaths: (paths) => display.addLogPaths(paths)
  };
}
function makeTestCaseKey(testFilePath, testId) {
  return `${path12.resolve(testFilePath)}::${testId}`;
}
function resolveTargetLabel(requestedName, resolvedName) {
  if (resolvedName !== requestedName) {
    return `${requestedName} \u2192 ${resolvedName}`;
  }
  return requestedName;
}
function createDisplayIdTracker() {
  const map = /* @__PURE__ */ new Map();
  let nextId = 1;
  return {
    getOrAssign(testCaseKey) {
      const existing = map.get(testCaseKey);
      if (existing !== void 0) {
        return existing;
      }
      const assigned = nextId++;
      map.set(testCaseKey, assigned);
      return assigned;
    }
  };
}
function extractModelName(target) {
  if (target.kind === "azure") {
    return target.config.deploymentName;
  }
  if ("model" in target.config && typeof target.config.model === "string") {
    return target.config.model;
  }
  return void 0;
}
function buildTargetLabelSuffix(providerLabel, target) {
  const parts = [`provider=${providerLabel}`];
  const model = extractModelName(target);
  if (model) parts.push(`model=${model}`);
  return `[${parts.join(", ")}]`;
}
function applyVerboseOverride(selection, cliVerbose) {
  const { resolvedTarget } = selection;
  if (resolvedTarget.kind !== "cli") {
    return selection;
  }
  return {
    ...selection,
    resolvedTarget: {
      ...resolvedTarget,
      config: {
        ...resolvedTarget.config,
        verbose: cliVerbose
      }
    }
  };
}
function targetVariantForSelection(selection) {
  const target = selection.resolvedTarget;
  if (target.kind === "replay") {
    return target.config.variant;
  }
  return void 0;
}
var RunOutputWriter = class {
  constructor(invocationDir, appendMode) {
    this.invocationDir = invocationDir;
    this.appendMode = appendMode;
    this.indexPath = resolveRunIndexPath(invocationDir);
  }
  indexPath;
  writer;
  async append(result) {
    const writer = await this.writerForRun();
    await writer.append(result);
  }
  async close() {
    await this.writer?.close();
  }
  indexPaths() {
    return this.writer ? [this.indexPath] : [];
  }
  async writerForRun() {
    if (this.writer) {
      return this.writer;
    }
    mkdirSync(this.invocationDir, { recursive: true });
    this.writer = await createOutputWriter(this.indexPath, { append: this.appendMode });
    return this.writer;
  }
};
async function readExistingResultsFromRunDir(runDir) {
  const manifests = discoverRunManifestPaths(runDir);
  const results = [];
  for (const manifest of manifests) {
    const content = await readFile8(manifest, "utf8");
    results.push(...parseJsonlResults(content));
  }
  return results;
}
async function resolveRerunFailedRunDir(cwd, source) {
  const trimmed = source.trim();
  if (!trimmed) {
    throw new Error("--rerun-failed requires a run ID, run workspace, or index.jsonl path.");
  }
  const candidate = path12.isAbsolute(trimmed) ? trimmed : path12.resolve(cwd, trimmed);
  if (existsSync5(candidate)) {
    if (path12.basename(candidate) !== RESULT_INDEX_FILENAME) {
      return candidate;
    }
    const manifestDir = path12.dirname(candidate);
    return path12.basename(manifestDir) === ".internal" ? path12.dirname(manifestDir) : manifestDir;
  }
  const runIdCandidate = path12.join(cwd, ".agentv", "results", trimmed);
  if (existsSync5(runIdCandidate)) {
    return runIdCandidate;
  }
  throw new Error(
    `Run not found for --rerun-failed: ${source}. Expected a run ID under .agentv/results, a run workspace, or an index.jsonl path.`
  );
}
async function prepareFileMetadata(params) {
  const { testFilePath, repoRoot, cwd, options, suiteFilter } = params;
  await ensureFileExists(testFilePath, "Test file");
  await loadEnvFromHierarchy({
    testFilePath,
    repoRoot,
    verbose: options.verbose
  });
  const relativePath = path12.relative(cwd, testFilePath);
  const category = deriveCategory(relativePath);
  const suite = await loadCliEvalSuite(testFilePath, repoRoot, {
    verbose: options.verbose,
    filter: suiteFilter ?? options.filter,
    category
  });
  const experimentOptions = applyExperimentOptions(options, suite.experimentConfig);
  const effectiveOptions = experimentOptions.workers === void 0 && suite.workers !== void 0 ? { ...experimentOptions, workers: suite.workers } : experimentOptions;
  const testCases = suiteFilter && effectiveOptions.filter ? suite.tests.filter(
    (testCase) => matchesTestFilter(testCase.id, effectiveOptions.filter ?? "")
  ) : suite.tests;
  const testIds = testCases.map((value) => value.id);
  const suiteTargetSpec = suite.targetSpec;
  const suiteTargets = suiteTargetSpec ? [suiteTargetSpec.name] : suite.targets;
  const defaultBudgetUsd = effectiveOptions.cliBudgetUsd === void 0 ? effectiveOptions.budgetUsd ?? suite.budgetUsd : void 0;
  const suiteDefaultThreshold = suite.defaultTest?.threshold ?? suite.threshold;
  if (testCases.length === 0) {
    return {
      options: effectiveOptions,
      testIds,
      testCases,
      selections: [],
      trialsConfig: effectiveOptions.experimentTrialsConfig,
      suiteTargets,
      yamlCache: suite.cacheConfig?.enabled,
      yamlCachePath: suite.cacheConfig?.cachePath,
      budgetUsd: defaultBudgetUsd,
      failOnError: suite.failOnError,
      threshold: suiteDefaultThreshold,
      tags: suite.metadata?.tags,
      providerFactory: suite.providerFactory
    };
  }
  let selections;
  if (effectiveOptions.transcript) {
    const transcriptSelection = {
      definitions: [],
      resolvedTarget: {
        kind: "transcript",
        name: "transcript",
        config: {}
      },
      targetName: "transcript",
      targetSource: "cli",
      targetsFilePath: effectiveOptions.transcript
    };
    selections = [
      {
        selection: transcriptSelection,
        inlineTargetLabel: `transcript (${path12.basename(effectiveOptions.transcript)})`
      }
    ];
  } else if (suite.inlineTarget && effectiveOptions.cliTargets.length === 0) {
    const targetDefinition = suite.inlineTarget;
    const resolvedTarget = resolveTargetDefinition(targetDefinition, process.env, testFilePath, {
      emitDeprecationWarnings: false
    });
    selections = [
      {
        selection: {
          definitions: [targetDefinition],
          resolvedTarget,
          targetName: targetDefinition.name,
          targetSource: "test-file",
          targetsFilePath: testFilePath
        },
        inlineTargetLabel: resolveTargetLabel(targetDefinition.name, resolvedTarget.name)
      }
    ];
  } else if (suite.providerFactory && effectiveOptions.cliTargets.length === 0) {
    const taskTarget = {
      kind: "mock",
      name: "custom-task",
      graderTarget: void 0,
      config: {}
    };
    selections = [
      {
        selection: {
          definitions: [],
          resolvedTarget: taskTarget,
          targetName: "custom-task",
          targetSource: "test-file",
          targetsFilePath: testFilePath
        },
        inlineTargetLabel: "custom-task"
      }
    ];
  } else {
    const cliTargets = effectiveOptions.cliTargets;
    const experimentTargets = effectiveOptions.experimentTargets ?? [];
    const suiteTargetSpec2 = suite.targetSpec;
    const suiteTargets2 = suiteTargetSpec2 ? [suiteTargetSpec2.name] : suite.targets;
    const suiteTargetRefs = suite.targetRefs;
    const experimentTargetRefs = effectiveOptions.experimentTargetRefs;
    let targetNames;
    let targetRefs;
    let targetSource = "test-file";
    if (cliTargets.length > 0) {
      targetNames = cliTargets;
      targetRefs = experimentTargetRefs;
      targetSource = "cli";
    } else if (experimentTargets.length > 0) {
      targetNames = experimentTargets;
      targetRefs = experimentTargetRefs;
    } else if (suiteTargets2 && suiteTargets2.length > 0) {
      targetNames = suiteTargets2;
      targetRefs = suiteTargetRefs;
    } else {
      targetNames = [];
      targetRefs = void 0;
    }
    if (targetNames.length > 1 || targetNames.length === 1 && targetRefs) {
      const multiSelections = await selectMultipleTargets({
        testFilePath,
        repoRoot,
        cwd,
        explicitTargetsPath: effectiveOptions.targetsPath,
        env: process.env,
        targetNames,
        targetRefs,
        targetSource,
        modelOverride: effectiveOptions.targetModelOverride
      });
      selections = multiSelections.map((sel) => ({
        selection: sel,
        inlineTargetLabel: sel.targetLabel ?? resolveTargetLabel(sel.targetName, sel.resolvedTarget.name)
      }));
    } else {
      const selection = await selectTarget({
        testFilePath,
        repoRoot,
        cwd,
        explicitTargetsPath: effectiveOptions.targetsPath,
        cliTargetName: targetSource === "cli" ? targetNames.length === 1 ? targetNames[0] : effectiveOptions.target : effectiveOptions.target,
        fileTargetName: targetSource === "test-file" && targetNames.length === 1 ? targetNames[0] : void 0,
        fileTargetSpec: targetSource === "test-file" && targetNames.length === 1 ? suiteTargetSpec2 : void 0,
        modelOverride: effectiveOptions.targetModelOverride,
        env: process.env
      });
      const singleTargetRef = targetRefs?.find((ref) => ref.name === selection.targetName);
      const augmentedSelection = {
        ...selection,
        ...singleTargetRef?.label ? { targetLabel: singleTargetRef.label } : {},
        ...singleTargetRef?.hooks ? { targetHooks: singleTargetRef.hooks } : {}
      };
      selections = [
        {
          selection: augmentedSelection,
          inlineTargetLabel: augmentedSelection.targetLabel ?? resolveTargetLabel(
            augmentedSelection.targetName,
            augmentedSelection.resolvedTarget.name
          )
        }
      ];
    }
  }
  return {
    options: effectiveOptions,
    testIds,
    testCases,
    selections,
    trialsConfig: effectiveOptions.experimentTrialsConfig,
    suiteTargets,
    yamlCache: suite.cacheConfig?.enabled,
    yamlCachePath: suite.cacheConfig?.cachePath,
    budgetUsd: defaultBudgetUsd,
    failOnError: suite.failOnError,
    threshold: suiteDefaultThreshold,
    tags: suite.metadata?.tags,
    providerFactory: suite.providerFactory
  };
}
function buildTaskBundleTargetSelections(activeTestFiles, fileMetadata) {
  return activeTestFiles.flatMap((testFilePath) => {
    const meta = fileMetadata.get(testFilePath);
    if (!meta) {
      return [];
    }
    return meta.selections.map(({ selection }) => ({
      evalFileAbsolutePath: testFilePath,
      targetName: selection.targetName,
      resolvedTargetName: selection.resolvedTarget.name,
      definitions: selection.definitions
    }));
  });
}
async function runSingleEvalFile(params) {
  const {
    testFilePath,
    cwd,
    repoRoot,
    options,
    outputWriter,
    cache,
    evaluationRunner,
    workersOverride,
    progressReporter,
    seenTestCases,
    displayIdTracker,
    selection,
    inlineTargetLabel,
    testCases,
    trialsConfig,
    agentTimeoutSeconds,
    matrixMode,
    budgetUsd,
    runBudgetTracker,
    failOnError,
    providerFactory
  } = params;
  const targetName = selection.targetName;
  const replayRecording = options.recordReplay ? {
    fixturesPath: path12.resolve(options.recordReplay),
    sourceTarget: targetName,
    variant: options.recordReplayVariant
  } : void 0;
  await ensureFileExists(testFilePath, "Test file");
  const resolvedTargetSelection = applyVerboseOverride(selection, options.verbose);
  const explicitVariant = targetVariantForSelection(resolvedTargetSelection);
  const providerLabel = resolvedTargetSelection.resolvedTarget.kind;
  const targetMessage = options.verbose ? `Using target (${resolvedTargetSelection.targetSource}): ${resolvedTargetSelection.targetName} ${buildTargetLabelSuffix(providerLabel, resolvedTargetSelection.resolvedTarget)} via ${resolvedTargetSelection.targetsFilePath}` : `Using target: ${inlineTargetLabel}`;
  if (!progressReporter.isInteractive || options.verbose) {
    console.log(`${targetMessage}`);
  }
  const targetKind = resolvedTargetSelection.resolvedTarget.kind;
  if (targetKind === "claude-cli" || targetKind === "copilot-cli") {
    console.log("");
    console.log("  TIP: For subagent-mode evals, use `agentv pipeline` instead of `eval run`.");
    console.log("  The agent orchestrates executor + grader subagents directly.");
    console.log("  Run: agentv pipeline --help");
    console.log("");
  }
  const agentTimeoutMs = agentTimeoutSeconds != null ? Math.max(0, agentTimeoutSeconds) * 1e3 : void 0;
  const workerPreference = workersOverride ?? options.workers;
  let resolvedWorkers = workerPreference ?? resolvedTargetSelection.resolvedTarget.workers ?? DEFAULT_WORKERS;
  if (resolvedWorkers < 1 || resolvedWorkers > 50) {
    throw new Error(`Workers must be between 1 and 50, got: ${resolvedWorkers}`);
  }
  const isVSCodeProvider = ["vscode", "vscode-insiders"].includes(
    resolvedTargetSelection.resolvedTarget.kind
  );
  if (isVSCodeProvider && resolvedWorkers > 1) {
    console.warn(
      `Warning: VSCode providers require window focus. Limiting workers from ${resolvedWorkers} to 1 to prevent race conditions.`
    );
    resolvedWorkers = 1;
  }
  if (isVSCodeProvider) {
    const vsConfig = resolvedTargetSelection.resolvedTarget.config;
    await ensureVSCodeSubagents({
      kind: resolvedTargetSelection.resolvedTarget.kind,
      count: resolvedWorkers,
      verbose: options.verbose,
      vscodeCmd: vsConfig.executable
    });
  }
  const results = await evaluationRunner({
    testFilePath,
    repoRoot,
    target: resolvedTargetSelection.resolvedTarget,
    targets: resolvedTargetSelection.definitions,
    env: process.env,
    maxRetries: Math.max(0, options.maxRetries),
    agentTimeoutMs,
    cache,
    useCache: (() => {
      if (!cache) return false;
      const targetConfig = resolvedTargetSelection.resolvedTarget.config;
      if (shouldSkipCacheForTemperature(targetConfig)) {
        if (options.verbose) {
          console.log("Cache skipped: target temperature > 0");
        }
        return false;
      }
      return true;
    })(),
    filter: options.filter,
    evalCases: testCases,
    verbose: options.verbose,
    maxConcurrency: resolvedWorkers,
    workspacePath: options.workspacePath,
    keepWorkspaces: options.keepWorkspaces,
    trials: trialsConfig,
    budgetUsd,
    runBudgetTracker,
    failOnError,
    graderTarget: options.graderTarget,
    model: options.model,
    threshold: params.threshold,
    targetHooks: resolvedTargetSelection.targetHooks,
    replayRecording,
    providerFactory,
    onResult: async (result) => {
      const resultWithVariant = explicitVariant && !result.variant ? { ...result, variant: explicitVariant } : result;
      const resultWithMetadata = withSourceMetadata(resultWithVariant, testFilePath, options);
      const trimmedResult = prepareResultForJsonl(resultWithMetadata, options);
      await outputWriter.append(trimmedResult);
    },
    onProgress: async (event) => {
      const testCaseKeyId = matrixMode ? `${event.testId}@${targetName}` : event.testId;
      const testCaseKey = makeTestCaseKey(testFilePath, testCaseKeyId);
      if (event.status === "pending" && !seenTestCases.has(testCaseKey)) {
        seenTestCases.add(testCaseKey);
        progressReporter.setTotal(seenTestCases.size);
      }
      const displayId = displayIdTracker.getOrAssign(testCaseKey);
      let verdict;
      if (event.executionStatus === "ok") verdict = "PASS";
      else if (event.executionStatus === "quality_failure") verdict = "FAIL";
      else if (event.executionStatus === "execution_error") verdict = "ERROR";
      progressReporter.update(displayId, {
        workerId: displayId,
        testId: matrixMode ? `${event.testId}@${targetName}` : event.testId,
        status: event.status,
        startedAt: event.startedAt,
        completedAt: event.completedAt,
        error: event.error,
        targetLabel: inlineTargetLabel,
        score: event.score,
        verdict,
        durationMs: event.durationMs,
        totalDurationMs: event.evalRunDurationMs
      });
    }
  });
  return {
    results: results.map(
      (result) => withSourceMetadata(
        explicitVariant && !result.variant ? { ...result, variant: explicitVariant } : result,
        testFilePath,
        options
      )
    )
  };
}
async function runEvalCommand(input) {
  const cwd = process.cwd();
  let config = null;
  try {
    config = await loadTsConfig(cwd);
  } catch (err) {
    console.warn(
      `Warning: Failed to load agentv config: ${err instanceof Error ? err.message : String(err)}`
    );
  }
  const repoRoot = await findRepoRoot(cwd);
  const yamlConfig = await loadConfig(path12.join(cwd, "_"), repoRoot);
  let requiredVersionCheck;
  if (yamlConfig?.required_version) {
    requiredVersionCheck = await enforceRequiredVersion(yamlConfig.required_version, {
      strict: normalizeBoolean(input.rawOptions.strict)
    });
  }
  let options = normalizeOptions(input.rawOptions, config, yamlConfig?.execution);
  const resolvedExperiment = resolveExperimentForRun(options.experiment);
  const evalPathInputs = input.testFiles.length > 0 ? [...input.testFiles] : [];
  if (evalPathInputs.length === 0 && process.stdin.isTTY) {
    const { launchInteractiveWizard } = await import("./interactive-BN527UV3.js");
    await launchInteractiveWizard();
    return void 0;
  }
  const resolvedTestFiles = await resolveEvalPaths(evalPathInputs, cwd, {
    allowReadAdapters: true
  });
  const fallbackResultGroupName = resolvedTestFiles.length === 1 ? deriveEvalResultGroupName(resolvedTestFiles[0]) : "multi-eval";
  const primarySuite = resolvedTestFiles.length > 0 ? await loadCliEvalSuite(resolvedTestFiles[0], repoRoot, {
    verbose: options.verbose,
    filter: options.filter,
    category: deriveCategory(path12.relative(cwd, resolvedTestFiles[0]))
  }) : void 0;
  const resultGroupName = resolvedTestFiles.length === 1 ? primarySuite?.metadata?.name ?? fallbackResultGroupName : fallbackResultGroupName;
  const resolvedTags = resolveEffectiveTags({
    evalTags: primarySuite?.tags,
    configTags: yamlConfig?.tags,
    cliTags: options.tagMap
  });
  const { experiment: resolvedExperimentNamespace } = resolveExperimentNamespace({
    cliExperiment: resolvedExperiment.name,
    tagsExperiment: normalizeString(resolvedTags?.experiment),
    isMultiEval: resolvedTestFiles.length > 1,
    suiteName: primarySuite?.metadata?.name,
    resultGroupName
  });
  const normalizedExperiment = normalizeExperimentName(resolvedExperimentNamespace);
  options = {
    ...options,
    experiment: resolvedExperimentNamespace
  };
  const emittedTags = syncTagsExperiment(resolvedTags, {
    experimentIsIntentional: resolvedExperiment.name !== void 0,
    normalizedExperiment
  });
  const hasCliRuntimeConfig = hasCliRuntimeSource(input.rawOptions);
  if (!process.env.AGENTV_EXPERIMENT) {
    process.env.AGENTV_EXPERIMENT = normalizedExperiment;
  }
  if (options.graderTarget === "agentv" && !options.model) {
    throw new Error("--grader-target agentv requires --model (e.g., --model openai:gpt-5-mini)");
  }
  if (options.removedOut) {
    throw new Error(
      [
        "--out was removed from agentv eval. Use --output <dir> for the canonical run directory.",
        "Flat result file export from agentv eval has been removed.",
        `Migration example: --out ${options.removedOut} -> --output <dir>`
      ].join("\n")
    );
  }
  if (options.outputFormat) {
    throw new Error(
      `--output-format was removed from agentv eval. The run directory always writes ${RESULT_INDEX_FILENAME}.`
    );
  }
  if (options.artifacts) {
    throw new Error(artifactsMigrationMessage(options.artifacts, options.outputDir));
  }
  if (options.outputDir && looksLikeLegacyOutputFilePath(options.outputDir)) {
    throw new Error(outputFileMigrationMessage(options.outputDir));
  }
  let retryNonErrorResults;
  if (options.retryErrors) {
    const retryPath = path12.resolve(options.retryErrors);
    await ensureFileExists(retryPath, "Retry-errors JSONL file");
    const completedIds = await loadFullyCompletedTestIds(retryPath);
    const errorIds = await loadErrorTestIds(retryPath);
    retryNonErrorResults = await loadNonErrorResults(retryPath);
    if (errorIds.length > 0) {
      console.log(`Found ${errorIds.length} execution-error test(s): ${errorIds.join(", ")}`);
    }
    if (completedIds.length > 0) {
      options = { ...options, filter: buildExclusionFilter(completedIds) };
      console.log(`Skipping ${completedIds.length} already-completed test(s).`);
    }
  }
  if (options.resume && !options.rerunFailedSource && !options.retryErrors && !options.outputDir) {
    const cachedDir = await resolveCachedRunDir(cwd);
    if (cachedDir) {
      options = { ...options, outputDir: cachedDir };
      const displayDir = path12.relative(cwd, cachedDir) || cachedDir;
      console.log(`Auto-detected last run dir for --resume: ${displayDir}`);
    }
  }
  let resumeSkipKeys;
  let rerunIncludeKeys;
  let isResumeAppend = false;
  if (options.resume && !options.retryErrors) {
    const sourceRunDir = options.rerunFailedSource ? await resolveRerunFailedRunDir(cwd, options.rerunFailedSource) : options.outputDir ? path12.resolve(options.outputDir) : void 0;
    if (sourceRunDir) {
      if (options.rerunFailedSource && !options.outputDir) {
        options = { ...options, outputDir: sourceRunDir };
      }
      const resumeIndexPaths = discoverRunManifestPaths(sourceRunDir);
      if (resumeIndexPaths.length > 0) {
        const existingResults = await readExistingResultsFromRunDir(sourceRunDir);
        resumeSkipKeys = createResumeIdentityMatcher();
        rerunIncludeKeys = options.rerunFailed ? createResumeIdentityMatcher() : void 0;
        let completedResultCount = 0;
        for (const entry of latestResumeIdentityEntries(existingResults)) {
          if (shouldSkipExistingResultForResume(entry.result, options.rerunFailed)) {
            completedResultCount += 1;
            addResumeIdentityEntry(resumeSkipKeys, entry);
          } else if (rerunIncludeKeys) {
            addResumeIdentityEntry(rerunIncludeKeys, entry);
          }
        }
        isResumeAppend = options.outputDir !== void 0 && path12.resolve(options.outputDir) === path12.resolve(sourceRunDir);
        const modeLabel = options.rerunFailed ? "Rerun-failed" : "Resume";
        console.log(
          `${modeLabel}: found ${existingResults.length} existing result(s), skipping ${completedResultCount} completed.`
        );
      } else if (options.rerunFailed) {
        rerunIncludeKeys = createResumeIdentityMatcher();
        console.log("Rerun-failed: no existing bundle run manifest found. Nothing to rerun.");
      } else {
        console.log("Resume: no existing bundle run manifest found, starting fresh run.");
      }
    } else {
      console.warn(
        "Warning: --resume requires --output <dir> (or a cached last run) to identify the run directory. Ignoring --resume."
      );
    }
  }
  if (options.workspacePath) {
    const resolvedWorkspace = path12.resolve(options.workspacePath);
    try {
      const { stat: stat3 } = await import("node:fs/promises");
      const stats = await stat3(resolvedWorkspace);
      if (!stats.isDirectory()) {
        throw new Error(`--workspace-path is not a directory: ${resolvedWorkspace}`);
      }
    } catch (err) {
      if (err.code === "ENOENT") {
        throw new Error(`--workspace-path does not exist: ${resolvedWorkspace}`);
      }
      throw err;
    }
    options = { ...options, workspacePath: resolvedWorkspace };
  }
  if (options.verbose) {
    console.log(`Repository root: ${repoRoot}`);
  }
  const explicitDir = options.outputDir;
  let runDir;
  let outputPath;
  let runDirName = process.env.AGENTV_RUN_TIMESTAMP?.trim() || createRunDirName();
  if (explicitDir) {
    runDir = path12.resolve(explicitDir);
    mkdirSync(runDir, { recursive: true });
    outputPath = runDir;
  } else {
    runDir = buildDefaultRunDirFromName(cwd, resultGroupName, runDirName);
    let suffix = 1;
    while (existsSync5(runDir)) {
      runDirName = `${process.env.AGENTV_RUN_TIMESTAMP?.trim() || createRunDirName()}-${suffix}`;
      runDir = buildDefaultRunDirFromName(cwd, resultGroupName, runDirName);
      suffix++;
    }
    mkdirSync(runDir, { recursive: true });
    outputPath = runDir;
  }
  if (!process.env.AGENTV_RUN_TIMESTAMP) {
    process.env.AGENTV_RUN_TIMESTAMP = path12.basename(runDir);
  }
  process.env.AGENTV_RUN_DIR = runDir;
  console.log(`Artifact directory: ${runDir}`);
  const evaluationRunner = await resolveEvaluationRunner();
  const allResults = [];
  const remoteEvalSummaries = [];
  const seenTestCases = /* @__PURE__ */ new Set();
  const displayIdTracker = createDisplayIdTracker();
  const runBudgetTracker = options.cliBudgetUsd ? new RunBudgetTracker(options.cliBudgetUsd) : void 0;
  if (runBudgetTracker) {
    console.log(`Run budget cap: $${runBudgetTracker.budgetCapUsd.toFixed(2)}`);
  }
  const fileMetadata = /* @__PURE__ */ new Map();
  for (const testFilePath of resolvedTestFiles) {
    const meta = await prepareFileMetadata({
      testFilePath,
      repoRoot,
      cwd,
      options,
      suiteFilter: void 0
    });
    fileMetadata.set(testFilePath, meta);
  }
  const hasTagFilters = options.tags.length > 0 || options.excludeTags.length > 0;
  if (hasTagFilters) {
    const skippedFiles = [];
    for (const [testFilePath, meta] of fileMetadata.entries()) {
      if (!matchesTagFilters(meta.tags, options.tags, options.excludeTags)) {
        fileMetadata.delete(testFilePath);
        skippedFiles.push(path12.relative(cwd, testFilePath));
      }
    }
    if (skippedFiles.length > 0 && options.verbose) {
      console.log(
        `Skipped ${skippedFiles.length} eval file(s) by tag filter: ${skippedFiles.join(", ")}`
      );
    }
    if (fileMetadata.size === 0) {
      console.log("No eval files matched the tag filters. Nothing to run.");
      return;
    }
  }
  const firstMeta = fileMetadata.values().next().value;
  const yamlCacheEnabled = firstMeta?.yamlCache;
  const yamlCachePath = firstMeta?.yamlCachePath;
  const cacheEnabled = shouldEnableCache({
    cliCache: options.cache,
    cliNoCache: options.noCache,
    yamlCache: yamlCacheEnabled,
    tsConfigCache: options.tsConfigCache
  });
  const activeCachePath = options.cachePath ?? yamlCachePath ?? options.tsConfigCachePath;
  const cache = cacheEnabled ? new ResponseCache(activeCachePath ? path12.resolve(activeCachePath) : void 0) : void 0;
  if (cache) {
    console.log(`Response cache: enabled (${cache.cachePath})`);
  }
  if (options.recordReplay) {
    console.log(`Replay recording: ${path12.resolve(options.recordReplay)}`);
  }
  const yamlThreshold = firstMeta?.threshold;
  const resolvedThreshold = options.threshold ?? yamlThreshold;
  if (resolvedThreshold !== void 0 && (resolvedThreshold < 0 || resolvedThreshold > 1)) {
    throw new Error("--threshold must be between 0 and 1");
  }
  const outputWriter = new RunOutputWriter(runDir, isResumeAppend);
  const isMatrixMode = Array.from(fileMetadata.values()).some((meta) => meta.selections.length > 1);
  let totalEvalCount = 0;
  let resumeSkippedCount = 0;
  for (const meta of fileMetadata.values()) {
    for (const test of meta.testCases) {
      for (const { selection } of meta.selections) {
        const target = selection.targetName;
        const variant = targetVariantForSelection(selection);
        if (rerunIncludeKeys) {
          if (resumeIdentityMatches(rerunIncludeKeys, test, target, variant)) {
            totalEvalCount++;
          } else {
            resumeSkippedCount++;
          }
        } else if (resumeSkipKeys && resumeIdentityMatches(resumeSkipKeys, test, target, variant)) {
          resumeSkippedCount++;
        } else {
          totalEvalCount++;
        }
      }
    }
  }
  if (totalEvalCount === 0) {
    if (options.retryErrors && retryNonErrorResults && retryNonErrorResults.length > 0) {
      console.log("No execution errors or missing cases in the previous run. Nothing to retry.");
      return;
    }
    if (rerunIncludeKeys) {
      console.log("Nothing to rerun \u2014 no failed or errored test(s) matched the current suite.");
      return;
    }
    if (resumeSkipKeys && resumeSkippedCount > 0) {
      console.log(`Nothing to resume \u2014 all ${resumeSkippedCount} test(s) already completed.`);
      return;
    }
    throw new Error("No tests matched the provided filters.");
  }
  const progressReporter = createProgressReporter(options.workers ?? DEFAULT_WORKERS, {
    verbose: options.verbose
  });
  progressReporter.start();
  progressReporter.setTotal(totalEvalCount);
  const seenCodexLogPaths = /* @__PURE__ */ new Set();
  const unsubscribeCodexLogs = subscribeToCodexLogEntries((entry) => {
    if (!entry.filePath || seenCodexLogPaths.has(entry.filePath)) {
      return;
    }
    seenCodexLogPaths.add(entry.filePath);
    progressReporter.addLogPaths([entry.filePath]);
  });
  const seenPiLogPaths = /* @__PURE__ */ new Set();
  const unsubscribePiLogs = subscribeToPiLogEntries((entry) => {
    if (!entry.filePath || seenPiLogPaths.has(entry.filePath)) {
      return;
    }
    seenPiLogPaths.add(entry.filePath);
    progressReporter.addLogPaths([entry.filePath]);
  });
  const seenCopilotLogPaths = /* @__PURE__ */ new Set();
  const unsubscribeCopilotSdkLogs = subscribeToCopilotSdkLogEntries((entry) => {
    if (!entry.filePath || seenCopilotLogPaths.has(entry.filePath)) {
      return;
    }
    seenCopilotLogPaths.add(entry.filePath);
    progressReporter.addLogPaths([entry.filePath]);
  });
  const unsubscribeCopilotCliLogs = subscribeToCopilotCliLogEntries((entry) => {
    if (!entry.filePath || seenCopilotLogPaths.has(entry.filePath)) {
      return;
    }
    seenCopilotLogPaths.add(entry.filePath);
    progressReporter.addLogPaths([entry.filePath]);
  });
  for (const [testFilePath, meta] of fileMetadata.entries()) {
    for (const { selection, inlineTargetLabel } of meta.selections) {
      for (const testId of meta.testIds) {
        const testCaseKey = makeTestCaseKey(
          testFilePath,
          meta.selections.length > 1 ? `${testId}@${selection.targetName}` : testId
        );
        seenTestCases.add(testCaseKey);
        const displayId = displayIdTracker.getOrAssign(testCaseKey);
        progressReporter.update(displayId, {
          workerId: displayId,
          testId: meta.selections.length > 1 ? `${testId}@${selection.targetName}` : testId,
          status: "pending",
          targetLabel: inlineTargetLabel
        });
      }
    }
  }
  const activeTestFiles = resolvedTestFiles.filter((f) => fileMetadata.has(f));
  const activeSourceTests = activeTestFiles.flatMap(
    (activeTestFile) => fileMetadata.get(activeTestFile)?.testCases ?? []
  );
  const singleActiveFileMetadata = activeTestFiles.length === 1 ? fileMetadata.get(activeTestFiles[0]) : void 0;
  const runExperimentMetadata = singleActiveFileMetadata?.options.experimentMetadata;
  const runtimeSourceMetadata = buildRuntimeSourceMetadata({
    cwd,
    activeTestFiles,
    sourceTests: activeSourceTests,
    fileMetadata,
    hasCliRuntimeConfig
  });
  const hasPerFileRuntimeThresholds = options.cliThreshold === void 0 && activeTestFiles.some((activeTestFile) => {
    const metadata = fileMetadata.get(activeTestFile);
    return metadata?.options.threshold !== void 0 || metadata?.threshold !== void 0;
  });
  let transcriptProviderFactory;
  if (options.transcript) {
    const { TranscriptProvider } = await import("./dist-NMXMI5SK.js");
    const transcriptProvider = await TranscriptProvider.fromFile(options.transcript);
    const totalTests = [...fileMetadata.values()].reduce(
      (sum, meta) => sum + meta.testCases.length,
      0
    );
    const evalTestIds = [...fileMetadata.values()].flatMap(
      (meta) => meta.testCases.map((testCase) => testCase.id)
    );
    if (transcriptProvider.lineCount !== totalTests) {
      throw new Error(
        `Transcript has ${transcriptProvider.lineCount} entr${transcriptProvider.lineCount === 1 ? "y" : "ies"} but eval defines ${totalTests} test(s). Each transcript entry must map to one test case by test_id.`
      );
    }
    const transcriptTestIds = new Set(transcriptProvider.testIds);
    const evalTestIdSet = new Set(evalTestIds);
    const missing = evalTestIds.filter((testId) => !transcriptTestIds.has(testId));
    const extra = transcriptProvider.testIds.filter((testId) => !evalTestIdSet.has(testId));
    if (missing.length > 0 || extra.length > 0) {
      throw new Error(
        [
          "Transcript test_id values must match eval test ids for replay.",
          missing.length > 0 ? `Missing transcript entries: ${missing.join(", ")}` : void 0,
          extra.length > 0 ? `Transcript entries without eval tests: ${extra.join(", ")}` : void 0
        ].filter((line) => line !== void 0).join(" ")
      );
    }
    transcriptProviderFactory = () => transcriptProvider;
    console.log(
      `Using transcript: ${options.transcript} (${transcriptProvider.lineCount} entry(s))`
    );
  }
  if (!isResumeAppend && totalEvalCount > 0) {
    const evalFile = activeTestFiles.length === 1 ? activeTestFiles[0] : "";
    await writeInitialRunSummaryArtifact(runDir, {
      evalFile,
      plannedTestCount: totalEvalCount,
      experiment: normalizeExperimentName(options.experiment),
      runId: path12.basename(runDir),
      experimentMetadata: runExperimentMetadata,
      runtimeSource: runtimeSourceMetadata,
      tags: emittedTags
    });
  }
  let wipLoop;
  let wipCleanedUp = false;
  let finalExportStatus = "disabled";
  {
    const wipConfig = await loadNormalizedResultsConfig(
      cwd,
      void 0,
      options.resultsOverrides
    ).catch(() => void 0);
    if (wipConfig?.auto_push) {
      wipLoop = new WipCheckpointLoop({
        config: wipConfig,
        runDir,
        destinationPath: getRelativeRunPath(cwd, runDir)
      });
      await wipLoop.start();
    }
  }
  let hasScopedRunPolicies = false;
  try {
    for (const testFilePath of activeTestFiles) {
      const targetPrep = fileMetadata.get(testFilePath);
      if (!targetPrep) {
        throw new Error(`Missing metadata for ${testFilePath}`);
      }
      const fileOptions = targetPrep.options;
      const fileBudgetTracker = runBudgetTracker ?? (fileOptions.budgetUsd !== void 0 ? new RunBudgetTracker(fileOptions.budgetUsd) : void 0);
      if (fileBudgetTracker?.isExceeded()) {
        const budgetMsg = `Run budget exceeded ($${fileBudgetTracker.currentCostUsd.toFixed(4)} / $${fileBudgetTracker.budgetCapUsd.toFixed(4)})`;
        console.log(`
\u26A0 ${budgetMsg} \u2014 skipping ${path12.basename(testFilePath)}`);
        for (const { selection } of targetPrep.selections) {
          const explicitVariant = targetVariantForSelection(selection);
          const skippedResults = targetPrep.testCases.map((testCase) => ({
            timestamp: (/* @__PURE__ */ new Date()).toISOString(),
            testId: testCase.testId ?? testCase.id,
            prompt: testCase.prompt,
            score: 0,
            assertions: [],
            output: budgetMsg,
            trace: buildTraceFromMessages({
              input: testCase.input,
              output: [{ role: "assistant", content: budgetMsg }],
              finalOutput: budgetMsg,
              target: selection.targetName,
              testId: testCase.testId ?? testCase.id,
              conversationId: testCase.conversation_id,
              error: budgetMsg
            }),
            error: budgetMsg,
            budgetExceeded: true,
            executionStatus: "execution_error",
            failureStage: "setup",
            failureReasonCode: "budget_exceeded",
            executionError: { message: budgetMsg, stage: "setup" },
            target: selection.targetName,
            variant: explicitVariant
          }));
          for (const r of skippedResults) {
            await outputWriter.append(withSourceMetadata(r, testFilePath, fileOptions));
          }
          allResults.push(
            ...skippedResults.map((r) => withSourceMetadata(r, testFilePath, fileOptions))
          );
        }
        continue;
      }
      const fileWorkerLimit = Math.max(1, fileOptions.workers ?? DEFAULT_WORKERS);
      const targetConcurrency = targetPrep.selections.length > 1 ? Math.min(fileWorkerLimit, targetPrep.selections.length) : 1;
      const perTargetWorkers = targetPrep.selections.length > 1 ? Math.max(1, Math.floor(fileWorkerLimit / targetConcurrency)) : fileWorkerLimit;
      const limitTarget = pLimit(targetConcurrency);
      const targetResults = await Promise.all(
        targetPrep.selections.map(
          ({ selection, inlineTargetLabel }) => limitTarget(async () => {
            const targetName = selection.targetName;
            const applicableTestCases = targetPrep.testCases;
            const filteredTestCases = rerunIncludeKeys ? applicableTestCases.filter(
              (test) => resumeIdentityMatches(
                rerunIncludeKeys,
                test,
                targetName,
                targetVariantForSelection(selection)
              )
            ) : resumeSkipKeys ? applicableTestCases.filter((test) => {
              const variant = targetVariantForSelection(selection);
              return !resumeIdentityMatches(resumeSkipKeys, test, targetName, variant);
            }) : applicableTestCases;
            if (filteredTestCases.length === 0) {
              return [];
            }
            try {
              const runGroups = groupTestsByRunPolicy({
                tests: filteredTestCases,
                options: fileOptions,
                defaultTrialsConfig: fileOptions.transcript ? void 0 : targetPrep.trialsConfig,
                defaultThreshold: targetPrep.threshold ?? fileOptions.threshold,
                defaultTimeoutSeconds: fileOptions.agentTimeoutSeconds,
                defaultBudgetUsd: targetPrep.budgetUsd
              });
              const groupResults = [];
              for (const group of runGroups) {
                hasScopedRunPolicies ||= group.policy.hasScopedOverride;
                const result = await runSingleEvalFile({
                  testFilePath,
                  cwd,
                  repoRoot,
                  options: fileOptions,
                  outputWriter,
                  cache,
                  evaluationRunner,
                  workersOverride: perTargetWorkers,
                  progressReporter,
                  seenTestCases,
                  displayIdTracker,
                  selection,
                  inlineTargetLabel,
                  testCases: group.tests,
                  trialsConfig: fileOptions.transcript ? void 0 : group.policy.trialsConfig,
                  agentTimeoutSeconds: group.policy.timeoutSeconds,
                  matrixMode: targetPrep.selections.length > 1,
                  budgetUsd: group.policy.budgetUsd,
                  runBudgetTracker: fileBudgetTracker,
                  failOnError: targetPrep.failOnError,
                  threshold: group.policy.threshold,
                  providerFactory: transcriptProviderFactory ?? targetPrep.providerFactory
                });
                groupResults.push(...result.results);
              }
              const evalFile = path12.relative(cwd, testFilePath);
              const existingSummary = remoteEvalSummaries.find(
                (summary2) => summary2.evalFile === evalFile
              );
              if (existingSummary) {
                existingSummary.results.push(...groupResults);
              } else {
                remoteEvalSummaries.push({
                  evalFile,
                  results: [...groupResults]
                });
              }
              return groupResults;
            } catch (fileError) {
              const message = fileError instanceof Error ? fileError.message : String(fileError);
              console.error(
                `
[ERROR] \u26A0 Eval file failed: ${path12.basename(testFilePath)} \u2014 ${message}
`
              );
              const explicitVariant = targetVariantForSelection(selection);
              const errorResults = filteredTestCases.map(
                (testCase) => withSourceMetadata(
                  {
                    timestamp: (/* @__PURE__ */ new Date()).toISOString(),
                    testId: testCase.testId ?? testCase.id,
                    prompt: testCase.prompt,
                    score: 0,
                    assertions: [],
                    output: message,
                    trace: buildTraceFromMessages({
                      input: testCase.input,
                      output: [{ role: "assistant", content: message }],
                      finalOutput: message,
                      target: selection.targetName,
                      testId: testCase.testId ?? testCase.id,
                      conversationId: testCase.conversation_id,
                      error: message
                    }),
                    scores: [],
                    error: message,
                    executionStatus: "execution_error",
                    failureStage: "setup",
                    failureReasonCode: "setup_error",
                    durationMs: 0,
                    tokenUsage: { input: 0, output: 0 },
                    target: selection.targetName,
                    variant: explicitVariant
                  },
                  testFilePath,
                  fileOptions
                )
              );
              for (const errResult of errorResults) {
                await outputWriter.append(errResult);
              }
              return errorResults;
            }
          })
        )
      );
      for (const results of targetResults) {
        allResults.push(...results);
      }
    }
    progressReporter.finish();
    if (retryNonErrorResults && retryNonErrorResults.length > 0) {
      for (const preserved of retryNonErrorResults) {
        await outputWriter.append(preserved);
      }
      allResults.push(...retryNonErrorResults);
      console.log(
        `Merged ${retryNonErrorResults.length} non-error result(s) from previous output.`
      );
    }
    await outputWriter.close().catch(() => void 0);
    const summaryResults = deduplicateByTestIdTarget(await readExistingResultsFromRunDir(runDir));
    const thresholdOpts = hasScopedRunPolicies || hasPerFileRuntimeThresholds ? { thresholdLabel: "configured threshold(s)", useExecutionStatus: true } : resolvedThreshold !== void 0 ? { threshold: resolvedThreshold } : void 0;
    const summary = calculateEvaluationSummary(summaryResults, thresholdOpts);
    console.log(formatEvaluationSummary(summary, thresholdOpts));
    if (requiredVersionCheck && !requiredVersionCheck.satisfied && (summary.qualityFailureCount > 0 || summary.executionErrorCount > 0)) {
      console.log(`
${formatRequiredVersionFailureNote(requiredVersionCheck)}`);
    }
    const allExecutionErrors = summary.total > 0 && summary.executionErrorCount === summary.total;
    const thresholdFailed = (thresholdOpts?.useExecutionStatus === true || resolvedThreshold !== void 0) && summary.qualityFailureCount > 0;
    if (isMatrixMode && summaryResults.length > 0) {
      console.log(formatMatrixSummary(summaryResults));
    }
    if (allResults.length > 0) {
      const evalFile = activeTestFiles.length === 1 ? activeTestFiles[0] : "";
      const sourceTests = activeSourceTests;
      const taskBundleTargets = buildTaskBundleTargetSelections(activeTestFiles, fileMetadata);
      if (isResumeAppend) {
        const { writePerTestArtifacts } = await import("./artifact-writer-7NBCOAYC.js");
        await writePerTestArtifacts(allResults, runDir, {
          experiment: normalizeExperimentName(options.experiment),
          runId: path12.basename(runDir),
          resultGroup: resultGroupName,
          cwd,
          repoRoot,
          sourceTests,
          taskBundleTargets,
          runtimeSource: runtimeSourceMetadata,
          tags: emittedTags
        });
        const { summaryPath } = await aggregateRunDir(runDir, {
          evalFile,
          experiment: normalizeExperimentName(options.experiment),
          runId: path12.basename(runDir),
          experimentMetadata: runExperimentMetadata,
          runtimeSource: runtimeSourceMetadata,
          tags: emittedTags
        });
        const indexPath = resolveRunIndexPath(runDir);
        console.log(`Artifact bundle updated: ${runDir}`);
        console.log(`  Run manifest: ${indexPath}`);
        console.log(`  Per-test artifacts: ${runDir} (${allResults.length} new test directories)`);
        console.log(`  Summary: ${summaryPath}`);
      } else {
        const { testArtifactDir, summaryPath, indexPath } = await writeArtifactsFromResults(
          allResults,
          runDir,
          {
            evalFile,
            experiment: normalizeExperimentName(options.experiment),
            runId: path12.basename(runDir),
            experimentMetadata: runExperimentMetadata,
            resultGroup: resultGroupName,
            cwd,
            repoRoot,
            sourceTests,
            taskBundleTargets,
            runtimeSource: runtimeSourceMetadata,
            tags: emittedTags
          }
        );
        console.log(`Artifact bundle written to: ${runDir}`);
        console.log(`  Run manifest: ${indexPath}`);
        console.log(
          `  Per-test artifacts: ${testArtifactDir} (${allResults.length} test directories)`
        );
        console.log(`  Summary: ${summaryPath}`);
      }
    }
    const resultsWithWorkspaces = allResults.filter((r) => r.workspacePath);
    const preservedWorkspaces = options.keepWorkspaces ? resultsWithWorkspaces : resultsWithWorkspaces.filter((r) => r.error || r.score < 0.5);
    if (preservedWorkspaces.length > 0) {
      console.log("\nPreserved workspaces:");
      for (const result of preservedWorkspaces) {
        console.log(`  ${result.testId} -> ${result.workspacePath}`);
      }
    }
    const usedWorkspaces = resultsWithWorkspaces.length > 0;
    if (!options.keepWorkspaces && usedWorkspaces) {
      console.log("Use --keep-workspaces to preserve all workspaces for inspection.");
    }
    if (allResults.length > 0) {
      const writtenIndexes = outputWriter.indexPaths();
      outputPath = writtenIndexes[0] ?? outputPath;
      console.log(`
Results written to: ${outputPath}`);
      console.log(`
Results written under: ${runDir}`);
      for (const indexPath of writtenIndexes) {
        console.log(`  ${indexPath}`);
      }
      await saveRunCache(cwd, runDir).catch(() => void 0);
      finalExportStatus = await maybeAutoExportRunArtifacts({
        cwd,
        run_dir: runDir,
        test_files: activeTestFiles,
        results: allResults,
        eval_summaries: remoteEvalSummaries.map((summary2) => ({
          eval_file: summary2.evalFile,
          total: summary2.results.length,
          passed: summary2.results.filter((result) => result.score >= DEFAULT_THRESHOLD).length,
          avg_score: summary2.results.length > 0 ? summary2.results.reduce((sum, result) => sum + result.score, 0) / summary2.results.length : 0,
          results: summary2.results.map((result) => ({
            test_id: result.testId,
            score: result.score,
            status: result.executionStatus === "execution_error" || result.error ? "ERROR" : result.score >= DEFAULT_THRESHOLD ? "PASS" : "FAIL"
          }))
        })),
        experiment: normalizeExperimentName(options.experiment),
        results_overrides: options.resultsOverrides
      });
    }
    if (summary.executionErrorCount > 0 && !options.retryErrors && !options.resume) {
      const evalFileArgs = activeTestFiles.map((f) => path12.relative(cwd, f)).join(" ");
      const targetFlag = options.target ? ` --target ${options.target}` : "";
      const relativeRunDir = path12.relative(cwd, runDir);
      console.log(
        `
Tip: ${summary.executionErrorCount} execution error(s) detected. Re-run failed tests with:
  agentv eval run ${evalFileArgs}${targetFlag} --rerun-failed ${relativeRunDir}`
      );
    }
    const runBudgetExceeded = runBudgetTracker?.isExceeded() ?? false;
    if (runBudgetExceeded) {
      console.log(
        `
\u26A0 Run budget exceeded: $${runBudgetTracker?.currentCostUsd.toFixed(4)} spent of $${runBudgetTracker?.budgetCapUsd.toFixed(4)} cap`
      );
    }
    if (wipLoop && (finalExportStatus === "published" || finalExportStatus === "already_published")) {
      wipCleanedUp = true;
      await wipLoop.stopAndDeleteWipBranch();
    }
    return {
      executionErrorCount: summary.executionErrorCount,
      outputPath,
      testFiles: activeTestFiles,
      target: options.target,
      thresholdFailed,
      allExecutionErrors,
      budgetExceeded: runBudgetExceeded || void 0
    };
  } finally {
    if (wipLoop && !wipCleanedUp) {
      await wipLoop.stop().catch(() => void 0);
    }
    unsubscribeCodexLogs();
    unsubscribePiLogs();
    unsubscribeCopilotSdkLogs();
    unsubscribeCopilotCliLogs();
    await outputWriter.close().catch(() => void 0);
  }
}
async function resolveEvaluationRunner() {
  const overridePath = process.env.AGENTEVO_CLI_EVAL_RUNNER;
  if (!overridePath) {
    return runEvaluation;
  }
  const resolved = path12.isAbsolute(overridePath) ? overridePath : path12.resolve(process.cwd(), overridePath);
  const moduleUrl = pathToFileURL(resolved).href;
  const mod = await import(moduleUrl);
  const candidate = mod.runEvaluation;
  if (typeof candidate !== "function") {
    throw new Error(
      `Module '${resolved}' must export a 'runEvaluation' function to override the default implementation`
    );
  }
  return candidate;
}

export {
  readAgentSkillsEvalsFile,
  resolveEvalPaths,
  findRepoRoot,
  package_default,
  RESULT_INDEX_FILENAME,
  RUN_INTERNAL_DIRNAME,
  isReservedResultsNamespace,
  normalizeExperimentName,
  createRunDirName,
  buildDefaultRunDirFromName,
  buildDefaultRunDir,
  isRunManifestPath,
  resolveExistingRunPrimaryPath,
  resolveRunManifestPath,
  relativeRunPathFromCwd,
  parseResultManifest,
  resolveResultSourcePath,
  loadManifestResults,
  normalizeTagMap,
  loadLightweightResults,
  Mutex,
  TARGET_FILE_CANDIDATES,
  fileExists,
  discoverTargetsFile,
  loadEnvFromHierarchy,
  detectFileType,
  validateEvalFile,
  validateTypeScriptEvalConfigFile,
  validateCasesFile,
  validateTargetsFile,
  validateConfigFile,
  validateFileReferences,
  validateWorkspacePaths,
  readTestSuiteTarget,
  selectTarget,
  selectMultipleTargets,
  enforceRequiredVersion,
  c,
  padRight,
  padLeft,
  loadResultFile,
  getTraceSummary,
  getTraceSpans,
  toTraceSummary,
  listResultFiles,
  formatNumber,
  formatDuration,
  formatCost,
  formatSize,
  formatScore,
  loadNormalizedResultsConfig,
  isRemoteRunId,
  getRemoteResultsStatus,
  syncRemoteResults,
  confirmRemoteResultsMerge,
  listMergedResultFiles,
  findRunById,
  ensureRemoteRunAvailable,
  maybeAutoExportRunArtifacts,
  resolveRunCacheFile,
  loadRunCache,
  discoverEvalFiles,
  getCategories,
  filterByCategory,
  runEvalCommand
};
//# sourceMappingURL=chunk-LKGARI3W.js.map