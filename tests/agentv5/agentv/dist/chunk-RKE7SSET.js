import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
import {
  buildIndexArtifactEntry,
  buildResultIndexArtifact,
  parseYamlValue,
  toSnakeCaseDeep,
  writeArtifactsFromResults,
  writePerTestArtifacts
} from "./chunk-ELCJ23K4.js";

// src/commands/eval/artifact-writer.ts
import path2 from "node:path";

// src/commands/eval/task-bundle.ts
import { createHash } from "node:crypto";
import { mkdir, readFile, readdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { stringify as stringifyYaml } from "yaml";
var TEST_BUNDLE_DIRNAME = "test";
var TASK_EVAL_FILENAME = "EVAL.yaml";
var TASK_TARGETS_FILENAME = "targets.yaml";
var TASK_FILES_DIRNAME = "files";
var TASK_GRADERS_DIRNAME = "graders";
var INPUT_PROMPT = "{{ input }}";
var BUNDLE_EVALS_DIRNAME = "evals";
var BUNDLE_MANIFEST_FILENAME = "agentv_bundle.json";
var BUNDLE_TARGETS_FILENAME = "targets.yaml";
var BUNDLE_WORKSPACES_DIRNAME = "workspaces";
var BUNDLE_SCRIPTS_DIRNAME = "scripts";
var REDACTED_SOURCE_VALUE = "[redacted]";
var SECRET_KEY_PATTERN = /(?:api[_-]?key|authorization|bearer|credential|password|private[_-]?key|secret|token)/i;
var SOURCE_SECRET_LINE_PATTERN = /^(\s*[\w.-]*(?:api[_-]?key|authorization|bearer|credential|password|private[_-]?key|secret|token)[\w.-]*\s*:\s*).+$/gim;
var SOURCE_SECRET_ASSIGNMENT_PATTERN = /^((?:--?)?[\w.-]*(?:api[_-]?key|authorization|bearer|credential|password|private[_-]?key|secret|token)[\w.-]*[=:]).+$/i;
var SOURCE_SECRET_FLAG_PATTERN = /^--?[\w.-]*(?:api[_-]?key|authorization|bearer|credential|password|private[_-]?key|secret|token)[\w.-]*$/i;
var SECRET_PATH_SEGMENT_PATTERN = /(^|[/\\._-])(?:\.env(?:\..*)?|id_rsa|id_dsa|id_ecdsa|id_ed25519|oauth|credentials?|secrets?|tokens?|private[_-]?key)(?:$|[/\\._-])/i;
var SKIPPED_DIR_NAMES = /* @__PURE__ */ new Set([
  ".git",
  "node_modules",
  ".agentv",
  ".ntm",
  ".beads",
  ".DS_Store"
]);
var AUTHORING_TOP_LEVEL_TARGET_FIELDS = /* @__PURE__ */ new Set([
  "label",
  "provider",
  "prompts",
  "transform",
  "delay",
  "env",
  "model",
  "use_target",
  "fallback_targets",
  "grader_target",
  "max_budget_usd",
  "workers",
  "batch_requests",
  "subagent_mode_allowed",
  "max_retries",
  "retry_initial_delay_ms",
  "retry_max_delay_ms",
  "retry_backoff_factor",
  "retry_status_codes"
]);
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function toPortableRelativePath(root, candidate) {
  if (!root) {
    return void 0;
  }
  const relative = path.relative(root, candidate);
  if (relative && !relative.startsWith("..") && !path.isAbsolute(relative)) {
    return relative.split(path.sep).join("/");
  }
  return void 0;
}
function safeRelativePath(value) {
  const normalized = value.replace(/\\/g, "/").replace(/^\/+/, "");
  const segments = normalized.split("/").filter((segment) => segment && segment !== ".");
  if (segments.length === 0 || segments.some((segment) => segment === "..")) {
    return void 0;
  }
  return segments.join("/");
}
function hashedExternalPath(resolvedPath) {
  const hash = createHash("sha256").update(path.resolve(resolvedPath)).digest("hex").slice(0, 10);
  const basename = path.basename(resolvedPath) || "asset";
  return `external/${hash}-${basename}`;
}
function relativeReferencePath(reference, options) {
  if (reference.resolvedPath) {
    const resolved = path.resolve(reference.resolvedPath);
    const portable = toPortableRelativePath(options.repoRoot, resolved) ?? toPortableRelativePath(options.cwd, resolved);
    return safeRelativePath(portable ?? hashedExternalPath(resolved));
  }
  return safeRelativePath(reference.displayPath);
}
function referenceBucket(reference) {
  if (reference.kind === "input_file" || reference.kind === "expected_output_file") {
    return TASK_FILES_DIRNAME;
  }
  if (reference.kind === "workspace_template") {
    return BUNDLE_WORKSPACES_DIRNAME;
  }
  if (reference.kind === "environment_workdir") {
    return BUNDLE_WORKSPACES_DIRNAME;
  }
  if (reference.kind === "workspace_hook_command" || reference.kind === "environment_setup_command") {
    return BUNDLE_SCRIPTS_DIRNAME;
  }
  return TASK_GRADERS_DIRNAME;
}
function isLikelyBinary(buffer) {
  return buffer.subarray(0, Math.min(buffer.length, 8e3)).includes(0);
}
function redactSecretLikeLines(content) {
  return content.replace(SOURCE_SECRET_LINE_PATTERN, `$1${REDACTED_SOURCE_VALUE}`);
}
function isSecretLikePath(filePath) {
  return SECRET_PATH_SEGMENT_PATTERN.test(filePath.replace(/\\/g, "/"));
}
function preservesPlaceholder(value) {
  return value.includes("${{");
}
function sanitizeSecretString(value, keyHint) {
  if (preservesPlaceholder(value)) {
    return value;
  }
  if (keyHint && SECRET_KEY_PATTERN.test(keyHint)) {
    return REDACTED_SOURCE_VALUE;
  }
  if (SOURCE_SECRET_ASSIGNMENT_PATTERN.test(value)) {
    return value.replace(SOURCE_SECRET_ASSIGNMENT_PATTERN, `$1${REDACTED_SOURCE_VALUE}`);
  }
  return value;
}
function sanitizeBundleValue(value, keyHint) {
  if (typeof value === "string") {
    return sanitizeSecretString(value, keyHint);
  }
  if (Array.isArray(value)) {
    let redactNext = false;
    return value.map((item) => {
      if (typeof item !== "string") {
        return sanitizeBundleValue(item);
      }
      if (redactNext) {
        redactNext = false;
        return preservesPlaceholder(item) ? item : REDACTED_SOURCE_VALUE;
      }
      if (SOURCE_SECRET_FLAG_PATTERN.test(item)) {
        redactNext = true;
        return item;
      }
      return sanitizeSecretString(item);
    });
  }
  if (isRecord(value)) {
    const sanitized = {};
    for (const [key, child] of Object.entries(value)) {
      sanitized[key] = sanitizeBundleValue(child, key);
    }
    return sanitized;
  }
  return value;
}
async function copyFileRedactingText(sourcePath, destinationPath) {
  await mkdir(path.dirname(destinationPath), { recursive: true });
  if (isSecretLikePath(sourcePath)) {
    await writeFile(destinationPath, `${REDACTED_SOURCE_VALUE}
`, "utf8");
    return true;
  }
  const content = await readFile(sourcePath);
  if (isLikelyBinary(content)) {
    await writeFile(destinationPath, content);
    return true;
  }
  const redacted = redactSecretLikeLines(content.toString("utf8").replace(/\r\n/g, "\n"));
  await writeFile(destinationPath, redacted, "utf8");
  return true;
}
async function copyDirectory(sourcePath, destinationPath) {
  if (isSecretLikePath(sourcePath)) {
    return false;
  }
  await mkdir(destinationPath, { recursive: true });
  let copiedAny = false;
  const entries = await readdir(sourcePath, { withFileTypes: true });
  for (const entry of entries) {
    if (SKIPPED_DIR_NAMES.has(entry.name) || isSecretLikePath(entry.name)) {
      continue;
    }
    const sourceChild = path.join(sourcePath, entry.name);
    const destinationChild = path.join(destinationPath, entry.name);
    if (entry.isDirectory()) {
      copiedAny = await copyDirectory(sourceChild, destinationChild) || copiedAny;
    } else if (entry.isFile()) {
      copiedAny = await copyFileRedactingText(sourceChild, destinationChild) || copiedAny;
    }
  }
  return copiedAny;
}
function shouldCopyDirectory(reference) {
  if (reference.kind !== "script_grader_cwd" && reference.kind !== "code_grader_cwd") {
    return true;
  }
  return !path.isAbsolute(reference.displayPath);
}
async function copyReferenceWithFailure(reference, taskDir, options) {
  if (!reference.resolvedPath) {
    return {
      failure: {
        reference,
        reason: `${reference.location ?? reference.kind} has no resolved path: ${reference.displayPath}`
      }
    };
  }
  const relPath = relativeReferencePath(reference, options);
  if (!relPath) {
    return {
      failure: {
        reference,
        reason: `${reference.location ?? reference.kind} could not be assigned a portable path: ${reference.displayPath}`
      }
    };
  }
  const bucket = referenceBucket(reference);
  const localPath = `${bucket}/${relPath}`;
  const destinationPath = path.join(taskDir, localPath);
  const sourcePath = path.resolve(reference.resolvedPath);
  const sourceStat = await stat(sourcePath).catch(() => void 0);
  if (!sourceStat) {
    return {
      failure: {
        reference,
        reason: `${reference.location ?? reference.kind} not found: ${reference.displayPath} (resolved to ${sourcePath})`
      }
    };
  }
  if (sourceStat.isDirectory()) {
    if (!shouldCopyDirectory(reference)) {
      return {
        failure: {
          reference,
          reason: `${reference.location ?? reference.kind} uses an absolute directory that is not safe to copy automatically: ${reference.displayPath}`
        }
      };
    }
    if (!await copyDirectory(sourcePath, destinationPath)) {
      return {
        failure: {
          reference,
          reason: `${reference.location ?? reference.kind} directory contained no bundleable files: ${reference.displayPath}`
        }
      };
    }
  } else if (sourceStat.isFile()) {
    if (!await copyFileRedactingText(sourcePath, destinationPath)) {
      return {
        failure: {
          reference,
          reason: `${reference.location ?? reference.kind} could not be copied: ${reference.displayPath}`
        }
      };
    }
  } else {
    return {
      failure: {
        reference,
        reason: `${reference.location ?? reference.kind} is not a regular file or directory: ${reference.displayPath}`
      }
    };
  }
  return { copied: { reference, localPath: localPath.split(path.sep).join("/"), destinationPath } };
}
async function copyReference(reference, taskDir, options) {
  return (await copyReferenceWithFailure(reference, taskDir, options)).copied;
}
async function copyReferences(references, taskDir, options) {
  const copied = [];
  const seenDestinations = /* @__PURE__ */ new Set();
  for (const reference of references) {
    const result = await copyReference(reference, taskDir, options);
    if (!result || seenDestinations.has(result.destinationPath)) {
      continue;
    }
    seenDestinations.add(result.destinationPath);
    copied.push(result);
  }
  return copied;
}
async function copyReferencesStrict(references, taskDir, options) {
  const copied = [];
  const failures = [];
  const seenDestinations = /* @__PURE__ */ new Set();
  const seenFailures = /* @__PURE__ */ new Set();
  for (const reference of references) {
    const result = await copyReferenceWithFailure(reference, taskDir, options);
    if (result.copied) {
      if (seenDestinations.has(result.copied.destinationPath)) {
        continue;
      }
      seenDestinations.add(result.copied.destinationPath);
      copied.push(result.copied);
      continue;
    }
    if (result.failure) {
      const key = `${result.failure.reference.kind}:${result.failure.reference.displayPath}:${result.failure.reason}`;
      if (!seenFailures.has(key)) {
        seenFailures.add(key);
        failures.push(result.failure);
      }
    }
  }
  return { copied, failures };
}
function addRewrite(rewrites, from, to) {
  if (!from || from.trim().length === 0) {
    return;
  }
  rewrites.set(from, to);
}
function buildPathRewrites(copiedReferences) {
  const rewrites = /* @__PURE__ */ new Map();
  for (const { reference, localPath } of copiedReferences) {
    addRewrite(rewrites, reference.displayPath, localPath);
    addRewrite(rewrites, reference.resolvedPath, localPath);
    addRewrite(rewrites, `file://${reference.displayPath}`, `file://${localPath}`);
    if (reference.resolvedPath) {
      addRewrite(rewrites, `file://${reference.resolvedPath}`, `file://${localPath}`);
    }
    for (const arg of reference.command ?? []) {
      if (arg === reference.displayPath || arg === reference.resolvedPath) {
        addRewrite(rewrites, arg, localPath);
      }
    }
  }
  return rewrites;
}
function rewritePathsDeep(value, rewrites) {
  if (typeof value === "string") {
    return rewrites.get(value) ?? value;
  }
  if (Array.isArray(value)) {
    return value.map((item) => rewritePathsDeep(item, rewrites));
  }
  if (isRecord(value)) {
    const rewritten = {};
    for (const [key, child] of Object.entries(value)) {
      rewritten[key] = rewritePathsDeep(child, rewrites);
    }
    return rewritten;
  }
  return value;
}
function parseSourceTestCase(test) {
  const parsed = test.source ? parseYamlValue(test.source.testSnapshotYaml) : void 0;
  const testCase = isRecord(parsed) ? { ...parsed } : { id: test.id, input: test.question };
  if (typeof testCase.id !== "string" || testCase.id.length === 0) {
    testCase.id = test.id;
  }
  return testCase;
}
function withoutLegacyAssertionKeys(testCase) {
  return Object.fromEntries(
    Object.entries(testCase).filter(([key]) => key !== "assert" && key !== "assertions")
  );
}
function moveInputToVars(testCase) {
  if (!Object.hasOwn(testCase, "input")) {
    return testCase;
  }
  const { input, input_files: _inputFiles, ...caseWithoutInput } = testCase;
  return {
    ...caseWithoutInput,
    vars: {
      ...isRecord(testCase.vars) ? testCase.vars : {},
      input
    }
  };
}
function serializeGraderDefinition(definition, rewrites) {
  const serialized = rewritePathsDeep(toSnakeCaseDeep(definition), rewrites);
  if (!isRecord(serialized)) {
    return serialized;
  }
  const { name, metric, ...rest } = serialized;
  return typeof name === "string" && metric === void 0 ? { metric: name, ...rest } : serialized;
}
function buildEvalCase(test, rewrites) {
  const testCase = rewritePathsDeep(parseSourceTestCase(test), rewrites);
  const graderDefinitions = test.source?.graderDefinitions ?? [];
  if (graderDefinitions.length > 0) {
    return moveInputToVars({
      ...withoutLegacyAssertionKeys(testCase),
      assert: graderDefinitions.map(
        (grader) => serializeGraderDefinition(grader.definition, rewrites)
      )
    });
  }
  return moveInputToVars(testCase);
}
function targetReferenceNames(target) {
  const references = [];
  for (const key of ["use_target", "grader_target"]) {
    const value = target[key];
    if (typeof value === "string" && value.trim().length > 0 && !value.includes("${{")) {
      references.push(value.trim());
    }
  }
  const fallbackTargets = target.fallback_targets;
  if (Array.isArray(fallbackTargets)) {
    for (const value of fallbackTargets) {
      if (typeof value === "string" && value.trim().length > 0 && !value.includes("${{")) {
        references.push(value.trim());
      }
    }
  }
  return references;
}
function selectTargetDefinitions(targetName, definitions) {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const selected = [];
  const seen = /* @__PURE__ */ new Set();
  function visit(name) {
    if (seen.has(name)) {
      return;
    }
    const definition = byName.get(name);
    if (!definition) {
      return;
    }
    seen.add(name);
    selected.push(definition);
    for (const referenceName of targetReferenceNames(definition)) {
      visit(referenceName);
    }
  }
  visit(targetName);
  return selected;
}
async function writeYamlFile(filePath, value) {
  const yaml = stringifyYaml(toSnakeCaseDeep(sanitizeBundleValue(value)), {
    lineWidth: 0
  }).trimEnd();
  await writeFile(filePath, `${yaml}
`, "utf8");
}
function hasCopiedBucket(copied, bucket) {
  return copied.some((entry) => entry.localPath.startsWith(`${bucket}/`));
}
function bundledEvalFileName(evalFilePath) {
  const basename = path.basename(evalFilePath);
  const withoutKnownExtension = basename.replace(/\.eval\.[cm]?ts$/i, "").replace(/\.eval\.ya?ml$/i, "").replace(/\.[cm]?ts$/i, "").replace(/\.ya?ml$/i, "").replace(/\.jsonl?$/i, "");
  const safeName = withoutKnownExtension.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return `${safeName || "bundle"}.eval.yaml`;
}
function uniqueTargetDefinitions(selections) {
  const selected = [];
  const seen = /* @__PURE__ */ new Set();
  for (const selection of selections) {
    for (const definition of selectTargetDefinitions(selection.targetName, selection.definitions)) {
      if (seen.has(definition.name)) {
        continue;
      }
      seen.add(definition.name);
      selected.push(definition);
    }
  }
  return selected;
}
function serializeTargetDefinition(definition) {
  const target = { id: definition.name };
  if (definition.id !== void 0) {
    target.id = definition.id;
  }
  const config = {};
  for (const [key, value] of Object.entries(definition)) {
    if (value === void 0 || key === "name" || key === "id" || key === "label" || key === "config") {
      continue;
    }
    if (AUTHORING_TOP_LEVEL_TARGET_FIELDS.has(key)) {
      target[key] = value;
    } else {
      config[key] = value;
    }
  }
  if (isRecord(definition.config)) {
    for (const [key, value] of Object.entries(definition.config)) {
      if (value !== void 0) {
        config[key] = value;
      }
    }
  }
  if (Object.keys(config).length > 0) {
    target.config = config;
  }
  return target;
}
function serializeTargetDefinitions(definitions) {
  return definitions.map((definition) => serializeTargetDefinition(definition));
}
function uniqueTargetNames(selections) {
  const names = [];
  const seen = /* @__PURE__ */ new Set();
  for (const selection of selections) {
    if (seen.has(selection.targetName)) {
      continue;
    }
    seen.add(selection.targetName);
    names.push(selection.targetName);
  }
  return names;
}
function rewritePathString(value, rewrites) {
  const direct = rewrites.get(value);
  if (direct) {
    return direct.startsWith("file://") ? direct.slice("file://".length) : direct;
  }
  const fileUrl = rewrites.get(`file://${value}`);
  if (fileUrl) {
    return fileUrl.startsWith("file://") ? fileUrl.slice("file://".length) : fileUrl;
  }
  return value;
}
function serializeContentValue(value, rewrites) {
  if (typeof value === "string") {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map((item) => serializeContentItem(item, rewrites));
  }
  if (isRecord(value)) {
    return rewritePathsDeep(value, rewrites);
  }
  return value;
}
function serializeContentItem(value, rewrites) {
  if (typeof value === "string") {
    return value;
  }
  if (!isRecord(value)) {
    return value;
  }
  const type = value.type;
  if (type === "text") {
    const text = typeof value.value === "string" ? value.value : value.text;
    return { type: "text", value: typeof text === "string" ? text : "" };
  }
  if (type === "file") {
    const source = typeof value.value === "string" ? value.value : typeof value.path === "string" ? value.path : typeof value.resolvedPath === "string" ? value.resolvedPath : void 0;
    return source ? { type: "file", value: rewritePathString(source, rewrites) } : { type: "file", value: "" };
  }
  if (type === "image") {
    const source = typeof value.value === "string" ? value.value : typeof value.path === "string" ? value.path : typeof value.resolvedPath === "string" ? value.resolvedPath : void 0;
    if (source) {
      return { type: "image", value: rewritePathString(source, rewrites) };
    }
  }
  return rewritePathsDeep(value, rewrites);
}
function serializeMessage(message, rewrites) {
  return {
    role: message.role,
    content: serializeContentValue(message.content, rewrites)
  };
}
function serializeExpectedMessage(message, rewrites) {
  const serialized = {};
  for (const [key, value] of Object.entries(message)) {
    serialized[key] = key === "content" ? serializeContentValue(value, rewrites) : value;
  }
  return rewritePathsDeep(serialized, rewrites);
}
function serializeWorkspace(workspace, rewrites) {
  const { workspaceFileDir: _workspaceFileDir, ...portableWorkspace } = workspace;
  return rewritePathsDeep(portableWorkspace, rewrites);
}
function serializeEnvironment(environment, rewrites) {
  const {
    authoredReference: _authoredReference,
    recipeFilePath: _recipeFilePath,
    recipeFileSha256: _recipeFileSha256,
    recipeSha256: _recipeSha256,
    sourceDir: _sourceDir,
    ...portableEnvironment
  } = environment;
  return rewritePathsDeep(portableEnvironment, rewrites);
}
function buildPortableEvalCase(test, rewrites) {
  const testCase = buildEvalCase(test, rewrites);
  testCase.id = test.id;
  testCase.vars = {
    ...isRecord(testCase.vars) ? testCase.vars : {},
    input: test.input.map((message) => serializeMessage(message, rewrites))
  };
  if (test.criteria.trim().length > 0) {
    testCase.criteria = test.criteria;
  }
  if (test.expected_output.length > 0) {
    testCase.expected_output = test.expected_output.map(
      (message) => serializeExpectedMessage(message, rewrites)
    );
  }
  if (test.workspace) {
    testCase.workspace = serializeWorkspace(test.workspace, rewrites);
  }
  if (test.environment) {
    testCase.environment = serializeEnvironment(test.environment, rewrites);
  }
  if (test.metadata && Object.keys(test.metadata).length > 0) {
    testCase.metadata = rewritePathsDeep(test.metadata, rewrites);
  }
  if (test.run && Object.keys(test.run).length > 0) {
    testCase.run = rewritePathsDeep(test.run, rewrites);
  }
  if (test.conversation_id) {
    testCase.conversation_id = test.conversation_id;
  }
  if (test.threshold !== void 0) {
    const existingExecution = isRecord(testCase.execution) ? testCase.execution : {};
    testCase.execution = { ...existingExecution, threshold: test.threshold };
  }
  if (test.mode) {
    testCase.mode = test.mode;
  }
  if (test.turns && test.turns.length > 0) {
    testCase.turns = rewritePathsDeep(test.turns, rewrites);
  }
  if (test.aggregation) {
    testCase.aggregation = test.aggregation;
  }
  if (test.on_turn_failure) {
    testCase.on_turn_failure = test.on_turn_failure;
  }
  if (test.window_size !== void 0) {
    testCase.window_size = test.window_size;
  }
  if (test.depends_on && test.depends_on.length > 0) {
    testCase.depends_on = test.depends_on;
  }
  if (test.on_dependency_failure) {
    testCase.on_dependency_failure = test.on_dependency_failure;
  }
  return testCase;
}
function isLikelyCommandPath(value) {
  if (value.trim().length === 0 || value.startsWith("-") || value.includes("${{")) {
    return false;
  }
  return value.startsWith(".") || value.includes("/") || value.includes("\\") || path.extname(value).length > 0;
}
async function maybeWorkspaceHookCommandReference(options) {
  if (!isLikelyCommandPath(options.arg)) {
    return void 0;
  }
  const resolvedPath = path.isAbsolute(options.arg) ? path.resolve(options.arg) : path.resolve(options.baseDir, options.arg);
  const sourceStat = await stat(resolvedPath).catch(() => void 0);
  if (!sourceStat?.isFile()) {
    return void 0;
  }
  return {
    kind: "workspace_hook_command",
    displayPath: options.arg,
    resolvedPath,
    location: `workspace.hooks.${options.hookName}.command for test "${options.testId}"`
  };
}
function environmentBaseDir(environment, evalFileDir) {
  return environment.recipeFilePath ? path.dirname(environment.recipeFilePath) : evalFileDir;
}
async function collectEnvironmentReferences(tests, evalFileDir) {
  const references = [];
  for (const test of tests) {
    const environment = test.environment;
    if (!environment) {
      continue;
    }
    if (environment.type === "host") {
      references.push({
        kind: "environment_workdir",
        displayPath: environment.workdir,
        resolvedPath: environment.workdir,
        location: `environment.workdir for test "${test.id}"`
      });
    }
    const command = environment.setup?.command;
    if (!command) {
      continue;
    }
    const baseDir = environmentBaseDir(environment, evalFileDir);
    const commandArgs = Array.isArray(command) ? command : [command];
    for (const arg of commandArgs) {
      const reference = await maybeWorkspaceHookCommandReference({
        arg,
        baseDir,
        testId: test.id,
        hookName: "setup"
      });
      if (reference) {
        references.push({
          ...reference,
          kind: "environment_setup_command",
          location: `environment.setup.command for test "${test.id}"`
        });
      }
    }
  }
  return references;
}
async function collectWorkspaceReferences(tests, evalFileDir) {
  const references = [];
  const errors = [];
  for (const test of tests) {
    const workspace = test.workspace;
    if (!workspace) {
      continue;
    }
    if (workspace.template) {
      references.push({
        kind: "workspace_template",
        displayPath: workspace.template,
        resolvedPath: workspace.template,
        location: `workspace.template for test "${test.id}"`
      });
    }
    const hooks = workspace.hooks;
    if (!hooks) {
      continue;
    }
    for (const hookName of ["before_all", "before_each", "after_each", "after_all"]) {
      const hook = hooks[hookName];
      const command = hook?.command;
      if (!command || command.length === 0) {
        continue;
      }
      if (hook?.cwd) {
        errors.push(
          `workspace.hooks.${hookName}.cwd for test "${test.id}" cannot be bundled safely yet: ${hook.cwd}`
        );
        continue;
      }
      const baseDir = workspace.workspaceFileDir ?? evalFileDir;
      for (const arg of command) {
        const reference = await maybeWorkspaceHookCommandReference({
          arg,
          baseDir,
          testId: test.id,
          hookName
        });
        if (reference) {
          references.push(reference);
        }
      }
    }
  }
  return { references, errors };
}
function collectExpectedOutputReferences(tests) {
  const references = [];
  for (const test of tests) {
    for (const message of test.expected_output) {
      const content = message.content;
      if (!Array.isArray(content)) {
        continue;
      }
      for (const segment of content) {
        if (!isRecord(segment) || segment.type !== "file") {
          continue;
        }
        const resolvedPath = typeof segment.resolvedPath === "string" ? path.resolve(segment.resolvedPath) : void 0;
        const displayPath = typeof segment.path === "string" ? segment.path : typeof segment.value === "string" ? segment.value : resolvedPath;
        if (!displayPath) {
          continue;
        }
        references.push({
          kind: "expected_output_file",
          displayPath,
          ...resolvedPath ? { resolvedPath } : {},
          location: `expected_output file for test "${test.id}"`
        });
      }
    }
  }
  return references;
}
function bundleManifest(options) {
  const relative = (filePath) => path.relative(options.outputDir, filePath).split(path.sep).join("/");
  return {
    schema_version: 1,
    created_at: options.createdAt,
    source_eval: options.evalFilePath,
    eval_path: relative(options.evalPath),
    targets_path: relative(options.targetsPath),
    test_count: options.tests.length,
    targets: options.targetNames,
    ...hasCopiedBucket(options.copiedReferences, "files") ? { files_path: "evals/files" } : {},
    ...hasCopiedBucket(options.copiedReferences, "graders") ? { graders_path: "evals/graders" } : {},
    ...hasCopiedBucket(options.copiedReferences, "workspaces") ? { workspaces_path: "evals/workspaces" } : {},
    ...hasCopiedBucket(options.copiedReferences, "scripts") ? { scripts_path: "evals/scripts" } : {}
  };
}
async function materializeTaskBundle(options) {
  if (!options.test.source) {
    return void 0;
  }
  const targetDefinitions = selectTargetDefinitions(options.targetName, options.targetDefinitions);
  if (targetDefinitions.length === 0) {
    return void 0;
  }
  const testDir = path.join(options.outputDir, TEST_BUNDLE_DIRNAME);
  await mkdir(testDir, { recursive: true });
  const copiedReferences = await copyReferences(options.test.source.references, testDir, options);
  const rewrites = buildPathRewrites(copiedReferences);
  const evalCase = buildEvalCase(options.test, rewrites);
  const evalPath = path.join(testDir, TASK_EVAL_FILENAME);
  const targetsPath = path.join(testDir, TASK_TARGETS_FILENAME);
  await writeYamlFile(evalPath, {
    target: options.targetName,
    prompts: [INPUT_PROMPT],
    tests: [evalCase]
  });
  await writeYamlFile(targetsPath, { targets: serializeTargetDefinitions(targetDefinitions) });
  return {
    testDir,
    evalPath,
    targetsPath,
    ...hasCopiedBucket(copiedReferences, "files") ? { filesPath: path.join(testDir, TASK_FILES_DIRNAME) } : {},
    ...hasCopiedBucket(copiedReferences, "graders") ? { gradersPath: path.join(testDir, TASK_GRADERS_DIRNAME) } : {}
  };
}
async function materializeEvalBundle(options) {
  if (options.tests.length === 0) {
    throw new Error("Cannot bundle eval with no runnable tests.");
  }
  if (options.targetSelections.length === 0) {
    throw new Error("Cannot bundle eval without a selected target.");
  }
  const missingSource = options.tests.find((test) => !test.source);
  if (missingSource) {
    throw new Error(
      `Cannot bundle test "${missingSource.id}" because it has no source metadata. YAML evals are supported; programmatic evals with inline functions are not portable yet.`
    );
  }
  const outputDir = path.resolve(options.outputDir);
  const evalsDir = path.join(outputDir, BUNDLE_EVALS_DIRNAME);
  await mkdir(evalsDir, { recursive: true });
  const evalFileDir = path.dirname(path.resolve(options.evalFilePath));
  const workspaceReferences = await collectWorkspaceReferences(options.tests, evalFileDir);
  const environmentReferences = await collectEnvironmentReferences(options.tests, evalFileDir);
  const references = [
    ...options.tests.flatMap((test) => test.source?.references ?? []),
    ...collectExpectedOutputReferences(options.tests),
    ...environmentReferences,
    ...workspaceReferences.references
  ];
  const { copied, failures } = await copyReferencesStrict(references, evalsDir, options);
  const errors = [...workspaceReferences.errors, ...failures.map((failure) => failure.reason)];
  if (errors.length > 0) {
    throw new Error(`Cannot bundle eval:
${errors.map((error) => `- ${error}`).join("\n")}`);
  }
  const rewrites = buildPathRewrites(copied);
  const targetNames = uniqueTargetNames(options.targetSelections);
  const evalPath = path.join(evalsDir, bundledEvalFileName(options.evalFilePath));
  const targetsPath = path.join(outputDir, BUNDLE_TARGETS_FILENAME);
  const manifestPath = path.join(outputDir, BUNDLE_MANIFEST_FILENAME);
  const runtime = options.runtime ?? (targetNames.length === 1 ? { target: targetNames[0] } : void 0);
  await writeYamlFile(evalPath, {
    ...runtime ?? {},
    prompts: [INPUT_PROMPT],
    tests: options.tests.map((test) => buildPortableEvalCase(test, rewrites))
  });
  await writeYamlFile(targetsPath, {
    targets: serializeTargetDefinitions(uniqueTargetDefinitions(options.targetSelections))
  });
  const manifest = bundleManifest({
    outputDir,
    evalFilePath: path.resolve(options.evalFilePath),
    evalPath,
    targetsPath,
    copiedReferences: copied,
    tests: options.tests,
    targetNames,
    createdAt: (options.now ?? (() => /* @__PURE__ */ new Date()))().toISOString()
  });
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}
`, "utf8");
  return {
    bundleDir: outputDir,
    evalsDir,
    evalPath,
    targetsPath,
    manifestPath,
    ...hasCopiedBucket(copied, "files") ? { filesPath: path.join(evalsDir, TASK_FILES_DIRNAME) } : {},
    ...hasCopiedBucket(copied, "graders") ? { gradersPath: path.join(evalsDir, TASK_GRADERS_DIRNAME) } : {},
    ...hasCopiedBucket(copied, "workspaces") ? { workspacesPath: path.join(evalsDir, BUNDLE_WORKSPACES_DIRNAME) } : {},
    ...hasCopiedBucket(copied, "scripts") ? { scriptsPath: path.join(evalsDir, BUNDLE_SCRIPTS_DIRNAME) } : {}
  };
}

// src/commands/eval/artifact-writer.ts
function toRelativeArtifactPath(outputDir, filePath) {
  return path2.relative(outputDir, filePath).split(path2.sep).join("/");
}
function buildTaskBundleIndexFields(outputDir, taskBundle) {
  if (!taskBundle) {
    return {};
  }
  return {
    test_dir: toRelativeArtifactPath(outputDir, taskBundle.testDir),
    eval_path: toRelativeArtifactPath(outputDir, taskBundle.evalPath),
    targets_path: toRelativeArtifactPath(outputDir, taskBundle.targetsPath),
    ...taskBundle.filesPath ? { files_path: toRelativeArtifactPath(outputDir, taskBundle.filesPath) } : {},
    ...taskBundle.gradersPath ? { graders_path: toRelativeArtifactPath(outputDir, taskBundle.gradersPath) } : {}
  };
}
function buildIndexArtifactEntry2(result, options) {
  return buildIndexArtifactEntry(result, {
    ...options,
    extraIndexFields: buildTaskBundleIndexFields(options.outputDir, options.taskBundle)
  });
}
function buildResultIndexArtifact2(result, taskBundle) {
  const artifactSubdir = (buildResultIndexArtifact(result).result_dir ?? "").trim();
  const extraIndexFields = taskBundle ? {
    test_dir: path2.posix.join(artifactSubdir, "test"),
    eval_path: path2.posix.join(artifactSubdir, "test", "EVAL.yaml"),
    targets_path: path2.posix.join(artifactSubdir, "test", "targets.yaml"),
    ...taskBundle.filesPath ? { files_path: path2.posix.join(artifactSubdir, "test", "files") } : {},
    ...taskBundle.gradersPath ? { graders_path: path2.posix.join(artifactSubdir, "test", "graders") } : {}
  } : void 0;
  return buildResultIndexArtifact(result, extraIndexFields);
}
function targetSelectionKey(evalFileAbsolutePath, targetName) {
  return `${evalFileAbsolutePath ? path2.resolve(evalFileAbsolutePath) : ""}::${targetName}`;
}
function buildTargetSelectionMap(selections) {
  const targets = /* @__PURE__ */ new Map();
  for (const selection of selections ?? []) {
    targets.set(
      targetSelectionKey(selection.evalFileAbsolutePath, selection.targetName),
      selection
    );
    if (selection.resolvedTargetName) {
      targets.set(
        targetSelectionKey(selection.evalFileAbsolutePath, selection.resolvedTargetName),
        selection
      );
    }
    if (!selection.evalFileAbsolutePath) {
      targets.set(targetSelectionKey(void 0, selection.targetName), selection);
      if (selection.resolvedTargetName) {
        targets.set(targetSelectionKey(void 0, selection.resolvedTargetName), selection);
      }
    }
  }
  return targets;
}
function findTargetSelection(result, test, targets) {
  const targetName = result.target ?? "unknown";
  const evalFileAbsolutePath = test?.source?.evalFileAbsolutePath;
  return targets.get(targetSelectionKey(evalFileAbsolutePath, targetName)) ?? targets.get(targetSelectionKey(void 0, targetName));
}
function createTaskBundleArtifactsWriter(options) {
  const targetSelections = buildTargetSelectionMap(options?.taskBundleTargets);
  if (targetSelections.size === 0) {
    return void 0;
  }
  return async ({ outputDir, result, sourceTest, testDir }) => {
    const targetSelection = findTargetSelection(result, sourceTest, targetSelections);
    if (!sourceTest || !targetSelection) {
      return void 0;
    }
    const taskBundle = await materializeTaskBundle({
      test: sourceTest,
      targetName: targetSelection.targetName,
      targetDefinitions: targetSelection.definitions,
      outputDir: testDir,
      cwd: options?.cwd,
      repoRoot: options?.repoRoot
    });
    return buildTaskBundleIndexFields(outputDir, taskBundle);
  };
}
async function writePerTestArtifacts2(results, outputDir, options) {
  await writePerTestArtifacts(results, outputDir, {
    experiment: options?.experiment,
    resultGroup: options?.resultGroup,
    runId: options?.runId,
    duplicatePolicy: options?.duplicatePolicy,
    sourceTests: options?.sourceTests,
    additionalArtifacts: options?.additionalArtifacts ?? createTaskBundleArtifactsWriter(options),
    runtimeSource: options?.runtimeSource,
    tags: options?.tags
  });
}
async function writeArtifactsFromResults2(results, outputDir, options) {
  return writeArtifactsFromResults(results, outputDir, {
    evalFile: options?.evalFile,
    experiment: options?.experiment,
    experimentMetadata: options?.experimentMetadata,
    plannedTestCount: options?.plannedTestCount,
    runId: options?.runId,
    duplicatePolicy: options?.duplicatePolicy,
    resultGroup: options?.resultGroup,
    sourceTests: options?.sourceTests,
    additionalArtifacts: options?.additionalArtifacts ?? createTaskBundleArtifactsWriter(options),
    runtimeSource: options?.runtimeSource,
    tags: options?.tags
  });
}

export {
  materializeEvalBundle,
  buildIndexArtifactEntry2 as buildIndexArtifactEntry,
  buildResultIndexArtifact2 as buildResultIndexArtifact,
  writePerTestArtifacts2 as writePerTestArtifacts,
  writeArtifactsFromResults2 as writeArtifactsFromResults
};
//# sourceMappingURL=chunk-RKE7SSET.js.map