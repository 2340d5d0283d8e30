import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
import {
  AGENTV_RESULTS_ARTIFACTS_REF,
  AGENTV_RESULTS_PRIMARY_REF,
  AGENT_PROVIDER_KINDS,
  EXECUTION_TRACE_SCHEMA_VERSION,
  buildPromptInputs,
  external_exports,
  extractLastAssistantContent2,
  getAgentvDataDir,
  groupTranscriptJsonLines,
  loadTests,
  normalizeToolCall,
  parseYamlValue,
  prepareEvalCaseWorkspace,
  prepareSharedWorkspaceSetup,
  readTranscriptJsonl,
  releaseSharedWorkspaceSetup
} from "./chunk-ELCJ23K4.js";

// ../../packages/core/dist/index.js
import { readFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import path2 from "node:path";
import micromatch from "micromatch";
import { execFile, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync as readFileSync2,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync
} from "node:fs";
import { cp, lstat, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path3 from "node:path";
import { promisify } from "node:util";
import * as childProcess from "node:child_process";
import { existsSync as existsSync2 } from "node:fs";
import { spawnSync } from "node:child_process";
import { spawnSync as spawnSync2 } from "node:child_process";
import { readFile as readFile2 } from "node:fs/promises";
import path4 from "node:path";
import { readdir as readdir2, stat as stat2 } from "node:fs/promises";
import { homedir } from "node:os";
import path5 from "node:path";
import { readdir as readdir3, stat as stat3 } from "node:fs/promises";
import { homedir as homedir2 } from "node:os";
import path6 from "node:path";
var TRACE_SESSION_SCHEMA_VERSION = "agentv.dashboard.trace_session.v1";
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function asRecord(value) {
  return isRecord(value) ? value : void 0;
}
function asArray(value) {
  return Array.isArray(value) ? value : [];
}
function stringValue(value) {
  return typeof value === "string" && value.length > 0 ? value : void 0;
}
function finiteNumber(value) {
  return typeof value === "number" && Number.isFinite(value) ? value : void 0;
}
function finiteInteger(value) {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : void 0;
}
function boolValue(value) {
  return typeof value === "boolean" ? value : void 0;
}
function dropUndefined(value) {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== void 0));
}
function compactRecord(value) {
  const compacted = dropUndefined(value);
  return Object.keys(compacted).length > 0 ? compacted : void 0;
}
function nonEmptyArray(value) {
  return value && value.length > 0 ? value : void 0;
}
function unixNanoToIso(value) {
  if (!value) {
    return void 0;
  }
  try {
    return new Date(Number(BigInt(value) / 1000000n)).toISOString();
  } catch {
    return void 0;
  }
}
function durationMsFromNanos(start, end) {
  if (!start || !end) {
    return void 0;
  }
  try {
    const startNanos = BigInt(start);
    const endNanos = BigInt(end);
    if (endNanos < startNanos) {
      return void 0;
    }
    return Number(endNanos - startNanos) / 1e6;
  } catch {
    return void 0;
  }
}
function numberFromAttributes(attributes, keys) {
  for (const key of keys) {
    const value = finiteNumber(attributes[key]);
    if (value !== void 0) {
      return value;
    }
  }
  return void 0;
}
function tokenUsageFromAttributes(attributes) {
  if (!attributes) {
    return void 0;
  }
  const nested = asRecord(attributes.token_usage);
  const usage = compactRecord({
    input: finiteNumber(nested?.input) ?? numberFromAttributes(attributes, [
      "gen_ai.usage.input_tokens",
      "llm.token_count.prompt",
      "input_tokens"
    ]),
    output: finiteNumber(nested?.output) ?? numberFromAttributes(attributes, [
      "gen_ai.usage.output_tokens",
      "llm.token_count.completion",
      "output_tokens"
    ]),
    reasoning: finiteNumber(nested?.reasoning) ?? numberFromAttributes(attributes, [
      "gen_ai.usage.reasoning.output_tokens",
      "reasoning_tokens"
    ]),
    cached: finiteNumber(nested?.cached) ?? numberFromAttributes(attributes, ["gen_ai.usage.cache_read.input_tokens", "cached_tokens"]),
    total: finiteNumber(nested?.total) ?? numberFromAttributes(attributes, ["total_tokens"])
  });
  return usage;
}
function isExternalTraceKey(key) {
  return key === "external_trace" || key.startsWith("external_trace_") || key.startsWith("external_trace.");
}
function isCredentialLikeKey(key) {
  const normalized = key.toLowerCase();
  if (normalized === "token_usage" || normalized.endsWith("_tokens") || normalized.endsWith(".tokens") || normalized.includes("usage.")) {
    return false;
  }
  return /(^|[._-])(api[._-]?key|authorization|bearer|password|secret|private[._-]?key|access[._-]?token|auth[._-]?token|client[._-]?secret|id[._-]?token|refresh[._-]?token|session[._-]?token|token)($|[._-])/.test(
    normalized
  );
}
function sanitizeAttributeMap(value) {
  if (!value) {
    return void 0;
  }
  const entries = Object.entries(value).flatMap(([key, entry]) => {
    if (isExternalTraceKey(key) || isCredentialLikeKey(key)) {
      return [];
    }
    if (isRecord(entry)) {
      const nested = sanitizeAttributeMap(entry);
      return nested ? [[key, nested]] : [];
    }
    return [[key, entry]];
  });
  return entries.length > 0 ? Object.fromEntries(entries) : void 0;
}
function spanStatusFromValue(value) {
  const record = asRecord(value);
  if (!record) {
    return void 0;
  }
  return compactRecord({
    code: stringValue(record.code) ?? (typeof record.code === "number" ? String(record.code) : void 0),
    message: stringValue(record.message)
  });
}
function eventKind(name, attributes) {
  const lowerName = name.toLowerCase();
  if (lowerName.includes("score") || numberFromAttributes(attributes ?? {}, [
    "score",
    "agentv.score",
    "agentv.grader.score",
    "gen_ai.evaluation.score.value",
    "openinference.evaluation.score"
  ]) !== void 0) {
    return "score";
  }
  if (lowerName.includes("annotation") || stringValue(attributes?.text) !== void 0 || stringValue(attributes?.annotation) !== void 0 || stringValue(attributes?.["agentv.annotation.text"]) !== void 0) {
    return "annotation";
  }
  if (lowerName === "exception") {
    return "exception";
  }
  return "event";
}
function scoreFromEvent(attributes) {
  if (!attributes) {
    return void 0;
  }
  return finiteNumber(attributes.score) ?? finiteNumber(attributes["agentv.score"]) ?? finiteNumber(attributes["agentv.grader.score"]) ?? finiteNumber(attributes["gen_ai.evaluation.score.value"]) ?? finiteNumber(attributes["openinference.evaluation.score"]);
}
function textFromEvent(attributes) {
  if (!attributes) {
    return void 0;
  }
  return stringValue(attributes.text) ?? stringValue(attributes.annotation) ?? stringValue(attributes["agentv.annotation.text"]) ?? stringValue(attributes["gen_ai.evaluation.explanation"]) ?? stringValue(attributes["gen_ai.evaluation.score.label"]) ?? stringValue(attributes["exception.message"]);
}
function passedFromEvent(attributes) {
  if (!attributes) {
    return void 0;
  }
  return boolValue(attributes.passed) ?? boolValue(attributes["agentv.annotation.passed"]) ?? boolValue(attributes["agentv.grader.passed"]) ?? boolValue(attributes["gen_ai.evaluation.passed"]);
}
function eventId(spanId, index, attributes) {
  return stringValue(attributes?.event_id) ?? stringValue(attributes?.["agentv.event_id"]) ?? `${spanId}:event:${index}`;
}
function projectSpanEvent(spanId, event, index) {
  const record = asRecord(event);
  if (!record) {
    return void 0;
  }
  const name = stringValue(record.name);
  if (!name) {
    return void 0;
  }
  const attributes = asRecord(record.attributes);
  const safeAttributes = sanitizeAttributeMap(attributes);
  return dropUndefined({
    event_id: eventId(spanId, index, attributes),
    span_id: spanId,
    name,
    kind: eventKind(name, attributes),
    time_unix_nano: stringValue(record.time_unix_nano),
    timestamp: unixNanoToIso(stringValue(record.time_unix_nano)),
    score: scoreFromEvent(attributes),
    text: textFromEvent(attributes),
    passed: passedFromEvent(attributes),
    attributes: safeAttributes
  });
}
function projectSpan(span, index) {
  const record = asRecord(span);
  if (!record) {
    return void 0;
  }
  const spanId = stringValue(record.span_id) ?? `span-${index}`;
  const traceId = stringValue(record.trace_id);
  const parentSpanId = record.parent_span_id === null ? null : stringValue(record.parent_span_id);
  const attributes = asRecord(record.attributes);
  const safeAttributes = sanitizeAttributeMap(attributes);
  const startTimeUnixNano = stringValue(record.start_time_unix_nano);
  const endTimeUnixNano = stringValue(record.end_time_unix_nano);
  const events = asArray(record.events).map((event, eventIndex) => projectSpanEvent(spanId, event, eventIndex)).filter((event) => event !== void 0);
  return dropUndefined({
    id: spanId,
    trace_id: traceId,
    span_id: spanId,
    parent_span_id: parentSpanId,
    name: stringValue(record.name) ?? spanId,
    kind: stringValue(record.kind),
    status: spanStatusFromValue(record.status),
    start_time_unix_nano: startTimeUnixNano,
    end_time_unix_nano: endTimeUnixNano,
    start_time: unixNanoToIso(startTimeUnixNano),
    end_time: unixNanoToIso(endTimeUnixNano),
    duration_ms: durationMsFromNanos(startTimeUnixNano, endTimeUnixNano),
    token_usage: tokenUsageFromAttributes(attributes),
    resource_attributes: sanitizeAttributeMap(asRecord(record.resource_attributes)),
    attributes: safeAttributes,
    events: events.length > 0 ? events : void 0
  });
}
function projectScores(scores) {
  const projected = [];
  for (const score of asArray(scores)) {
    const record = asRecord(score);
    const name = stringValue(record?.name);
    const value = finiteNumber(record?.score);
    if (!record || !name || value === void 0) {
      continue;
    }
    projected.push(
      dropUndefined({
        name,
        type: stringValue(record.type),
        score: value,
        weight: finiteNumber(record.weight),
        verdict: stringValue(record.verdict),
        source: stringValue(record.source),
        evaluated_at: stringValue(record.evaluated_at),
        target_span_id: stringValue(record.target_span_id),
        evidence: asRecord(record.evidence)
      })
    );
  }
  return projected.length > 0 ? projected : void 0;
}
var EXTERNAL_TRACE_KEYS = [
  "provider",
  "source",
  "endpoint",
  "profile",
  "project",
  "project_id",
  "session_id",
  "session_node_id",
  "trace_id",
  "trace_node_id",
  "span_id",
  "span_node_id",
  "traceparent",
  "tracestate",
  "ui_url",
  "run_id",
  "test_id",
  "target"
];
function sanitizeUrl(value) {
  const raw = stringValue(value);
  if (!raw) {
    return void 0;
  }
  try {
    const url = new URL(raw);
    if (!["http:", "https:"].includes(url.protocol) || url.username || url.password) {
      return void 0;
    }
    url.search = "";
    url.hash = "";
    return url.toString();
  } catch {
    return void 0;
  }
}
function sanitizeExternalTrace(value) {
  const record = asRecord(value);
  if (!record) {
    return void 0;
  }
  const sanitized = compactRecord({
    provider: stringValue(record.provider),
    source: stringValue(record.source),
    endpoint: sanitizeUrl(record.endpoint),
    profile: stringValue(record.profile),
    project: stringValue(record.project),
    project_id: stringValue(record.project_id) ?? stringValue(record.projectId),
    session_id: stringValue(record.session_id) ?? stringValue(record.session),
    session_node_id: stringValue(record.session_node_id) ?? stringValue(record.session_node) ?? stringValue(record.node_id),
    trace_id: stringValue(record.trace_id) ?? stringValue(record.trace),
    trace_node_id: stringValue(record.trace_node_id) ?? stringValue(record.trace_node),
    span_id: stringValue(record.span_id) ?? stringValue(record.span),
    span_node_id: stringValue(record.span_node_id) ?? stringValue(record.span_node),
    traceparent: stringValue(record.traceparent),
    tracestate: stringValue(record.tracestate),
    ui_url: sanitizeUrl(record.ui_url ?? record.url ?? record.href),
    run_id: stringValue(record.run_id),
    test_id: stringValue(record.test_id),
    target: stringValue(record.target)
  });
  return sanitized && EXTERNAL_TRACE_KEYS.some((key) => sanitized[key] !== void 0) ? sanitized : void 0;
}
function externalTraceFromFlatMetadata(metadata) {
  if (!metadata) {
    return void 0;
  }
  return sanitizeExternalTrace({
    provider: metadata.external_trace_provider ?? metadata["external_trace.provider"],
    source: metadata.external_trace_source ?? metadata["external_trace.source"],
    endpoint: metadata.external_trace_endpoint ?? metadata["external_trace.endpoint"],
    profile: metadata.external_trace_profile ?? metadata["external_trace.profile"],
    project: metadata.external_trace_project ?? metadata["external_trace.project"],
    project_id: metadata.external_trace_project_id ?? metadata["external_trace.project_id"],
    session_id: metadata.external_trace_session_id ?? metadata.external_trace_session ?? metadata["external_trace.session_id"] ?? metadata["external_trace.session"],
    session_node_id: metadata.external_trace_session_node_id ?? metadata.external_trace_node_id ?? metadata["external_trace.session_node_id"] ?? metadata["external_trace.node_id"],
    trace_id: metadata.external_trace_trace_id ?? metadata.external_trace_trace ?? metadata["external_trace.trace_id"] ?? metadata["external_trace.trace"],
    trace_node_id: metadata.external_trace_trace_node_id ?? metadata["external_trace.trace_node_id"],
    span_id: metadata.external_trace_span_id ?? metadata.external_trace_span ?? metadata["external_trace.span_id"] ?? metadata["external_trace.span"],
    span_node_id: metadata.external_trace_span_node_id ?? metadata["external_trace.span_node_id"],
    traceparent: metadata.external_trace_traceparent ?? metadata["external_trace.traceparent"],
    tracestate: metadata.external_trace_tracestate ?? metadata["external_trace.tracestate"],
    ui_url: metadata.external_trace_ui_url ?? metadata.external_trace_url ?? metadata["external_trace.ui_url"] ?? metadata["external_trace.url"],
    run_id: metadata.external_trace_run_id ?? metadata["external_trace.run_id"],
    test_id: metadata.external_trace_test_id ?? metadata["external_trace.test_id"],
    target: metadata.external_trace_target ?? metadata["external_trace.target"]
  });
}
function sanitizeMetadataValue(value) {
  if (Array.isArray(value)) {
    const sanitized = value.map(sanitizeMetadataValue).filter((entry) => entry !== void 0);
    return sanitized.length > 0 ? sanitized : void 0;
  }
  if (isRecord(value)) {
    return sanitizeMetadata(value);
  }
  return value;
}
function sanitizeMetadata(value) {
  if (!value) {
    return void 0;
  }
  const entries = Object.entries(value).flatMap(([key, entry]) => {
    if (isExternalTraceKey(key) || isCredentialLikeKey(key)) {
      return [];
    }
    const sanitized = sanitizeMetadataValue(entry);
    return sanitized !== void 0 ? [[key, sanitized]] : [];
  });
  return entries.length > 0 ? Object.fromEntries(entries) : void 0;
}
function sourceFromEnvelope(source, artifactPath) {
  if (!source && !artifactPath) {
    return void 0;
  }
  return compactRecord({
    kind: stringValue(source?.kind),
    path: stringValue(source?.path),
    provider: stringValue(source?.provider),
    format: stringValue(source?.format),
    version: stringValue(source?.version),
    artifact_path: artifactPath,
    metadata: sanitizeMetadata(asRecord(source?.metadata))
  });
}
function safeArtifactPath(value) {
  const raw = stringValue(value);
  if (!raw || raw.includes("\0")) {
    return void 0;
  }
  const normalized = raw.replace(/\\/g, "/");
  if (normalized.startsWith("/") || normalized.startsWith("//")) {
    return void 0;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(normalized)) {
    return void 0;
  }
  if (normalized.split("/").includes("..")) {
    return void 0;
  }
  return normalized;
}
function projectArtifactLinks(artifacts) {
  const record = asRecord(artifacts);
  if (!record) {
    return void 0;
  }
  const links = Object.entries(record).flatMap(([name, value]) => {
    if (!stringValue(name) || isCredentialLikeKey(name)) {
      return [];
    }
    const artifactPath = safeArtifactPath(value);
    return artifactPath ? [{ name, path: artifactPath }] : [];
  }).sort((first, second) => first.name.localeCompare(second.name));
  return links.length > 0 ? links : void 0;
}
function projectSourceRef(value) {
  const record = asRecord(value);
  if (!record) {
    return void 0;
  }
  return compactRecord({
    event_id: stringValue(record.event_id),
    message_id: stringValue(record.message_id),
    span_id: stringValue(record.span_id),
    trace_id: stringValue(record.trace_id),
    raw_kind: stringValue(record.raw_kind),
    path: safeArtifactPath(record.path),
    line: finiteInteger(record.line),
    metadata: sanitizeMetadata(asRecord(record.metadata))
  });
}
function projectConversionWarnings(warnings) {
  const projected = [];
  for (const warning of asArray(warnings)) {
    const record = asRecord(warning);
    const code = stringValue(record?.code);
    const message = stringValue(record?.message);
    if (!record || !code || !message) {
      continue;
    }
    projected.push(
      dropUndefined({
        code,
        severity: stringValue(record.severity),
        span_id: stringValue(record.span_id),
        source_ref: projectSourceRef(record.source_ref),
        message,
        details: sanitizeMetadata(asRecord(record.details))
      })
    );
  }
  return projected.length > 0 ? projected : void 0;
}
function externalTraceFromEnvelope(envelope) {
  const source = asRecord(envelope.source);
  const sourceMetadata = asRecord(source?.metadata);
  const trace = asRecord(envelope.trace);
  const rootSpanId = stringValue(trace?.root_span_id);
  const rootSpan = asArray(trace?.spans).map(asRecord).find((span) => stringValue(span?.span_id) === rootSpanId);
  const rootAttributes = asRecord(rootSpan?.attributes);
  return sanitizeExternalTrace(envelope.external_trace) ?? sanitizeExternalTrace(sourceMetadata?.external_trace) ?? externalTraceFromFlatMetadata(sourceMetadata) ?? externalTraceFromFlatMetadata(rootAttributes);
}
function traceEnvelopeToTraceSessionResponse(input, options = {}) {
  const envelope = asRecord(input) ?? {};
  const evaluation = asRecord(envelope.eval);
  const trace = asRecord(envelope.trace);
  const traceResource = asRecord(trace?.resource);
  const spans = asArray(trace?.spans).map(projectSpan).filter((span) => span !== void 0);
  const events = spans.flatMap((span) => span.events ?? []);
  return dropUndefined({
    schema_version: TRACE_SESSION_SCHEMA_VERSION,
    artifact_id: stringValue(envelope.artifact_id),
    created_at: stringValue(envelope.created_at),
    run_id: options.runId ?? stringValue(evaluation?.run_id),
    test_id: stringValue(evaluation?.test_id),
    suite: stringValue(evaluation?.suite),
    target: stringValue(evaluation?.target),
    trace_id: stringValue(trace?.trace_id),
    root_span_id: stringValue(trace?.root_span_id),
    source: sourceFromEnvelope(asRecord(envelope.source), options.artifactPath),
    external_trace: externalTraceFromEnvelope(envelope),
    artifact_links: projectArtifactLinks(envelope.artifacts),
    resource_attributes: sanitizeAttributeMap(asRecord(traceResource?.attributes)),
    conversion_warnings: projectConversionWarnings(envelope.conversion_warnings),
    spans,
    events,
    scores: projectScores(envelope.scores)
  });
}
function buildTraceSpanTree(spans) {
  const nodes = [];
  const firstNodeBySpanId = /* @__PURE__ */ new Map();
  const spanIdCounts = /* @__PURE__ */ new Map();
  spans.forEach((span, index) => {
    const rawSpanId = stringValue(span.span_id);
    const spanId = rawSpanId ?? `missing-span-${index}`;
    const occurrence = (spanIdCounts.get(spanId) ?? 0) + 1;
    spanIdCounts.set(spanId, occurrence);
    const node = {
      id: occurrence === 1 ? spanId : `${spanId}#${occurrence}`,
      spanId,
      parentSpanId: span.parent_span_id,
      span,
      children: [],
      diagnostics: rawSpanId ? void 0 : [
        {
          code: "missing_span_id",
          message: "Span was missing span_id and was assigned a stable node id.",
          node_id: spanId
        }
      ]
    };
    if (occurrence > 1) {
      addNodeDiagnostic(node, {
        code: "duplicate_span_id",
        message: "Duplicate span_id was preserved with a collision-free node id.",
        span_id: spanId,
        node_id: node.id
      });
    }
    if (!firstNodeBySpanId.has(spanId)) {
      firstNodeBySpanId.set(spanId, node);
    }
    nodes.push(node);
  });
  const parentByNodeId = /* @__PURE__ */ new Map();
  for (const node of nodes) {
    const parentSpanId = typeof node.parentSpanId === "string" && node.parentSpanId.length > 0 ? node.parentSpanId : void 0;
    if (!parentSpanId) {
      continue;
    }
    if (parentSpanId === node.spanId) {
      addNodeDiagnostic(node, {
        code: "self_parent",
        message: "Span parent_span_id points to itself; span was promoted to a root.",
        span_id: node.spanId,
        node_id: node.id,
        parent_span_id: parentSpanId
      });
      continue;
    }
    const parent = firstNodeBySpanId.get(parentSpanId);
    if (!parent) {
      addNodeDiagnostic(node, {
        code: "missing_parent",
        message: "Span parent_span_id was not present in this trace; span was promoted to a root.",
        span_id: node.spanId,
        node_id: node.id,
        parent_span_id: parentSpanId
      });
      continue;
    }
    parentByNodeId.set(node.id, parent);
  }
  const cyclicNodes = [];
  for (const node of nodes) {
    if (hasAncestorCycle(node, parentByNodeId)) {
      cyclicNodes.push(node);
    }
  }
  for (const node of cyclicNodes) {
    parentByNodeId.delete(node.id);
    addNodeDiagnostic(node, {
      code: "cycle",
      message: "Span parent chain contains a cycle; span was promoted to a root.",
      span_id: node.spanId,
      node_id: node.id,
      parent_span_id: typeof node.parentSpanId === "string" ? node.parentSpanId : void 0
    });
  }
  const roots = [];
  for (const node of nodes) {
    const parent = parentByNodeId.get(node.id);
    if (parent) {
      parent.children.push(node);
    } else {
      roots.push(node);
    }
  }
  sortTraceSpanNodes(roots);
  return roots;
}
function addNodeDiagnostic(node, diagnostic) {
  node.diagnostics = [...node.diagnostics ?? [], diagnostic];
}
function hasAncestorCycle(node, parentByNodeId) {
  const seen = /* @__PURE__ */ new Set();
  let cursor = parentByNodeId.get(node.id);
  while (cursor) {
    if (cursor.id === node.id || seen.has(cursor.id)) {
      return true;
    }
    seen.add(cursor.id);
    cursor = parentByNodeId.get(cursor.id);
  }
  return false;
}
function compareUnixNanoValue(first, second) {
  if (first === second) {
    return 0;
  }
  if (!first) {
    return 1;
  }
  if (!second) {
    return -1;
  }
  try {
    const firstValue = BigInt(first);
    const secondValue = BigInt(second);
    return firstValue < secondValue ? -1 : firstValue > secondValue ? 1 : 0;
  } catch {
    return first.localeCompare(second);
  }
}
function compareTraceSpanNodes(first, second) {
  const byStart = compareUnixNanoValue(
    first.span.start_time_unix_nano,
    second.span.start_time_unix_nano
  );
  if (byStart !== 0) {
    return byStart;
  }
  if (first.spanId === second.parentSpanId) {
    return -1;
  }
  if (second.spanId === first.parentSpanId) {
    return 1;
  }
  const bySpanId = first.spanId.localeCompare(second.spanId);
  return bySpanId !== 0 ? bySpanId : first.id.localeCompare(second.id);
}
function sortTraceSpanNodes(nodes) {
  nodes.sort(compareTraceSpanNodes);
  for (const node of nodes) {
    node.children.sort(compareTraceSpanNodes);
    if (node.children.length > 0) {
      sortTraceSpanNodes(node.children);
    }
    node.diagnostics = nonEmptyArray(node.diagnostics);
  }
}
var TRACE_ENVELOPE_FORMAT = "otlp_openinference_spans";
var OTLP_ROOT_FIELDS = /* @__PURE__ */ new Set(["resourceSpans"]);
var OTLP_RESOURCE_SPAN_FIELDS = /* @__PURE__ */ new Set(["resource", "scopeSpans", "schemaUrl"]);
var OTLP_RESOURCE_FIELDS = /* @__PURE__ */ new Set(["attributes", "droppedAttributesCount"]);
var OTLP_SCOPE_SPAN_FIELDS = /* @__PURE__ */ new Set(["scope", "spans", "schemaUrl"]);
var OTLP_SCOPE_FIELDS = /* @__PURE__ */ new Set(["name", "version", "attributes", "droppedAttributesCount"]);
var OTLP_SPAN_FIELDS = /* @__PURE__ */ new Set([
  "traceId",
  "spanId",
  "parentSpanId",
  "traceState",
  "name",
  "kind",
  "startTimeUnixNano",
  "endTimeUnixNano",
  "attributes",
  "droppedAttributesCount",
  "events",
  "droppedEventsCount",
  "links",
  "droppedLinksCount",
  "status"
]);
var OTLP_EVENT_FIELDS = /* @__PURE__ */ new Set(["timeUnixNano", "name", "attributes", "droppedAttributesCount"]);
var OTLP_STATUS_FIELDS = /* @__PURE__ */ new Set(["code", "message"]);
var OTLP_ATTRIBUTE_FIELDS = /* @__PURE__ */ new Set(["key", "value"]);
var OTLP_ANY_VALUE_FIELDS = /* @__PURE__ */ new Set([
  "stringValue",
  "boolValue",
  "intValue",
  "doubleValue",
  "arrayValue",
  "kvlistValue",
  "bytesValue"
]);
function normalizeTraceArtifactToTraceSessionResponse(input, options = {}) {
  const artifact = asRecord2(input);
  if (!artifact) {
    return {
      status: "unsupported",
      message: "Trace artifact is not a JSON object."
    };
  }
  if (stringValue2(artifact.schema_version) === EXECUTION_TRACE_SCHEMA_VERSION) {
    return normalizeAgentVTraceEnvelope(artifact, options);
  }
  if (Object.hasOwn(artifact, "resourceSpans")) {
    return normalizeOtlpJson(artifact, options);
  }
  return {
    status: "unsupported",
    message: "Trace artifact is not an agentv.trace.v1 envelope or OTLP JSON resourceSpans body."
  };
}
function normalizeAgentVTraceEnvelope(artifact, options) {
  const trace = asRecord2(artifact.trace);
  if (!Array.isArray(trace?.spans)) {
    return {
      status: "unsupported",
      message: "Trace artifact is not an agentv.trace.v1 envelope with trace.spans."
    };
  }
  const traceSession = traceEnvelopeToTraceSessionResponse(artifact, options);
  return {
    status: "ok",
    format: "agentv_trace_v1",
    traceSession,
    warnings: traceSession.conversion_warnings
  };
}
function normalizeOtlpJson(artifact, options) {
  const warnings = [];
  warnUnknownFields(artifact, OTLP_ROOT_FIELDS, warnings, {
    rawKind: "otlp_json",
    path: options.artifactPath
  });
  const resourceSpans = Array.isArray(artifact.resourceSpans) ? artifact.resourceSpans : [];
  if (!Array.isArray(artifact.resourceSpans)) {
    addWarning(warnings, "malformed_otlp_resource_spans", "OTLP resourceSpans must be an array.", {
      rawKind: "otlp_json",
      path: options.artifactPath
    });
  }
  const spans = [];
  const resourceAttributeSets = [];
  let scopeSpanCount = 0;
  let firstScope;
  resourceSpans.forEach((resourceSpan, resourceSpanIndex) => {
    const resourceRecord = asRecord2(resourceSpan);
    if (!resourceRecord) {
      addWarning(
        warnings,
        "malformed_otlp_resource_span",
        "OTLP resourceSpans entry must be an object and was skipped.",
        {
          rawKind: "otlp_resource_span",
          path: options.artifactPath,
          details: { resource_span_index: resourceSpanIndex }
        }
      );
      return;
    }
    warnUnknownFields(resourceRecord, OTLP_RESOURCE_SPAN_FIELDS, warnings, {
      rawKind: "otlp_resource_span",
      path: options.artifactPath,
      details: { resource_span_index: resourceSpanIndex }
    });
    const resource = asRecord2(resourceRecord.resource);
    if (resource) {
      warnUnknownFields(resource, OTLP_RESOURCE_FIELDS, warnings, {
        rawKind: "otlp_resource",
        path: options.artifactPath,
        details: { resource_span_index: resourceSpanIndex }
      });
    }
    const resourceAttributes2 = parseOtlpAttributes(resource?.attributes, warnings, {
      rawKind: "otlp_resource_attributes",
      path: options.artifactPath,
      details: { resource_span_index: resourceSpanIndex }
    });
    if (resourceAttributes2 && Object.keys(resourceAttributes2).length > 0) {
      resourceAttributeSets.push(resourceAttributes2);
    }
    const scopeSpans = Array.isArray(resourceRecord.scopeSpans) ? resourceRecord.scopeSpans : [];
    if (!Array.isArray(resourceRecord.scopeSpans)) {
      addWarning(
        warnings,
        "malformed_otlp_scope_spans",
        "OTLP resourceSpans.scopeSpans must be an array and was skipped.",
        {
          rawKind: "otlp_resource_span",
          path: options.artifactPath,
          details: { resource_span_index: resourceSpanIndex }
        }
      );
    }
    scopeSpans.forEach((scopeSpan, scopeSpanIndex) => {
      const scopeSpanRecord = asRecord2(scopeSpan);
      if (!scopeSpanRecord) {
        addWarning(
          warnings,
          "malformed_otlp_scope_span",
          "OTLP scopeSpans entry must be an object and was skipped.",
          {
            rawKind: "otlp_scope_span",
            path: options.artifactPath,
            details: { resource_span_index: resourceSpanIndex, scope_span_index: scopeSpanIndex }
          }
        );
        return;
      }
      scopeSpanCount += 1;
      warnUnknownFields(scopeSpanRecord, OTLP_SCOPE_SPAN_FIELDS, warnings, {
        rawKind: "otlp_scope_span",
        path: options.artifactPath,
        details: { resource_span_index: resourceSpanIndex, scope_span_index: scopeSpanIndex }
      });
      const scope = normalizeOtlpScope(scopeSpanRecord.scope, warnings, {
        rawKind: "otlp_scope",
        path: options.artifactPath,
        details: { resource_span_index: resourceSpanIndex, scope_span_index: scopeSpanIndex }
      });
      firstScope ??= scope;
      const otlpSpans = Array.isArray(scopeSpanRecord.spans) ? scopeSpanRecord.spans : [];
      if (!Array.isArray(scopeSpanRecord.spans)) {
        addWarning(
          warnings,
          "malformed_otlp_spans",
          "OTLP scopeSpans.spans must be an array and was skipped.",
          {
            rawKind: "otlp_scope_span",
            path: options.artifactPath,
            details: { resource_span_index: resourceSpanIndex, scope_span_index: scopeSpanIndex }
          }
        );
      }
      otlpSpans.forEach((span, spanIndex) => {
        const normalized = normalizeOtlpSpan(span, warnings, {
          resourceAttributes: resourceAttributes2,
          path: options.artifactPath,
          resourceSpanIndex,
          scopeSpanIndex,
          spanIndex
        });
        if (normalized) {
          spans.push(normalized);
        }
      });
    });
  });
  if (spans.length === 0) {
    addWarning(warnings, "empty_otlp_trace", "OTLP JSON did not contain any readable spans.", {
      rawKind: "otlp_json",
      path: options.artifactPath
    });
  }
  const traceId = firstString(spans.map((span) => span.trace_id));
  const rootSpanId = firstRootSpanId(spans);
  const resourceAttributes = singleDistinctRecord(resourceAttributeSets);
  const createdAt = (options.now?.() ?? /* @__PURE__ */ new Date()).toISOString();
  const artifactPath = options.artifactPath;
  const envelope = dropUndefined2({
    schema_version: EXECUTION_TRACE_SCHEMA_VERSION,
    artifact_id: `otlp-trace-${traceId ?? rootSpanId ?? "unknown"}`,
    created_at: createdAt,
    eval: dropUndefined2({
      run_id: options.runId,
      test_id: options.testId ?? traceId ?? "otlp-trace",
      suite: options.suite,
      target: options.target ?? "unknown"
    }),
    trace: dropUndefined2({
      format: TRACE_ENVELOPE_FORMAT,
      trace_id: traceId,
      root_span_id: rootSpanId,
      resource: resourceAttributes ? { attributes: resourceAttributes } : void 0,
      scope: firstScope,
      spans
    }),
    source: dropUndefined2({
      kind: "otlp",
      path: artifactPath,
      format: "otlp_json",
      version: "1",
      metadata: dropUndefined2({
        resource_spans_count: resourceSpans.length,
        scope_spans_count: scopeSpanCount
      })
    }),
    capture: {
      content: "metadata",
      redaction_level: "partial"
    },
    conversion_warnings: warnings.length > 0 ? warnings : void 0,
    artifacts: artifactPath ? { raw_trace_path: artifactPath } : void 0
  });
  const traceSession = traceEnvelopeToTraceSessionResponse(envelope, options);
  return {
    status: "ok",
    format: "otlp_json",
    traceSession,
    warnings: traceSession.conversion_warnings
  };
}
function normalizeOtlpScope(value, warnings, context) {
  if (value === void 0) {
    return void 0;
  }
  const scope = asRecord2(value);
  if (!scope) {
    addWarning(warnings, "malformed_otlp_scope", "OTLP scope must be an object and was ignored.", {
      ...context,
      rawKind: context.rawKind ?? "otlp_scope"
    });
    return void 0;
  }
  warnUnknownFields(scope, OTLP_SCOPE_FIELDS, warnings, context);
  const normalized = dropUndefined2({
    name: stringValue2(scope.name),
    version: stringValue2(scope.version)
  });
  return Object.keys(normalized).length > 0 ? normalized : void 0;
}
function normalizeOtlpSpan(value, warnings, context) {
  const span = asRecord2(value);
  const details = {
    resource_span_index: context.resourceSpanIndex,
    scope_span_index: context.scopeSpanIndex,
    span_index: context.spanIndex
  };
  if (!span) {
    addWarning(warnings, "malformed_otlp_span", "OTLP span must be an object and was skipped.", {
      rawKind: "otlp_span",
      path: context.path,
      details
    });
    return void 0;
  }
  warnUnknownFields(span, OTLP_SPAN_FIELDS, warnings, {
    rawKind: "otlp_span",
    path: context.path,
    details
  });
  const spanId = stringValue2(span.spanId) ?? `missing-span-${context.resourceSpanIndex}-${context.scopeSpanIndex}-${context.spanIndex}`;
  if (!stringValue2(span.spanId)) {
    addWarning(
      warnings,
      "missing_span_id",
      "OTLP span was missing spanId; a stable ID was assigned.",
      {
        rawKind: "otlp_span",
        path: context.path,
        spanId,
        details
      }
    );
  }
  const traceId = stringValue2(span.traceId);
  if (!traceId) {
    addWarning(warnings, "missing_trace_id", "OTLP span was missing traceId.", {
      rawKind: "otlp_span",
      path: context.path,
      spanId,
      details
    });
  }
  const name = stringValue2(span.name) ?? spanId;
  if (!stringValue2(span.name)) {
    addWarning(warnings, "missing_span_name", "OTLP span was missing name; spanId was used.", {
      rawKind: "otlp_span",
      path: context.path,
      spanId,
      details
    });
  }
  const parentSpanId = span.parentSpanId === void 0 || span.parentSpanId === null || span.parentSpanId === "" ? null : stringValue2(span.parentSpanId);
  if (span.parentSpanId !== void 0 && span.parentSpanId !== null && span.parentSpanId !== "" && !parentSpanId) {
    addWarning(
      warnings,
      "malformed_parent_span_id",
      "OTLP span parentSpanId was not a string and was ignored.",
      {
        rawKind: "otlp_span",
        path: context.path,
        spanId,
        details
      }
    );
  }
  const attributes = parseOtlpAttributes(span.attributes, warnings, {
    rawKind: "otlp_span_attributes",
    path: context.path,
    spanId,
    details
  });
  const events = normalizeOtlpEvents(span.events, warnings, {
    path: context.path,
    spanId,
    details
  });
  return dropUndefined2({
    trace_id: traceId,
    span_id: spanId,
    parent_span_id: parentSpanId,
    name,
    kind: normalizeOtlpSpanKind(span.kind, warnings, {
      rawKind: "otlp_span",
      path: context.path,
      spanId,
      details
    }),
    start_time_unix_nano: normalizeUnixNano(span.startTimeUnixNano, "startTimeUnixNano", warnings, {
      rawKind: "otlp_span",
      path: context.path,
      spanId,
      details
    }),
    end_time_unix_nano: normalizeUnixNano(span.endTimeUnixNano, "endTimeUnixNano", warnings, {
      rawKind: "otlp_span",
      path: context.path,
      spanId,
      details
    }),
    status: normalizeOtlpStatus(span.status, warnings, {
      rawKind: "otlp_span_status",
      path: context.path,
      spanId,
      details
    }),
    resource_attributes: context.resourceAttributes,
    attributes,
    events
  });
}
function normalizeOtlpEvents(value, warnings, context) {
  if (value === void 0) {
    return void 0;
  }
  if (!Array.isArray(value)) {
    addWarning(warnings, "malformed_otlp_events", "OTLP span events must be an array.", {
      rawKind: "otlp_span_events",
      path: context.path,
      spanId: context.spanId,
      details: context.details
    });
    return void 0;
  }
  const events = value.flatMap((event, eventIndex) => {
    const eventRecord = asRecord2(event);
    const details = { ...context.details, event_index: eventIndex };
    if (!eventRecord) {
      addWarning(
        warnings,
        "malformed_otlp_event",
        "OTLP span event must be an object and was skipped.",
        {
          rawKind: "otlp_span_event",
          path: context.path,
          spanId: context.spanId,
          details
        }
      );
      return [];
    }
    warnUnknownFields(eventRecord, OTLP_EVENT_FIELDS, warnings, {
      rawKind: "otlp_span_event",
      path: context.path,
      spanId: context.spanId,
      details
    });
    const name = stringValue2(eventRecord.name) ?? `event-${eventIndex}`;
    if (!stringValue2(eventRecord.name)) {
      addWarning(
        warnings,
        "missing_event_name",
        "OTLP span event was missing name; a stable name was assigned.",
        {
          rawKind: "otlp_span_event",
          path: context.path,
          spanId: context.spanId,
          details
        }
      );
    }
    return [
      dropUndefined2({
        name,
        time_unix_nano: normalizeUnixNano(eventRecord.timeUnixNano, "timeUnixNano", warnings, {
          rawKind: "otlp_span_event",
          path: context.path,
          spanId: context.spanId,
          details
        }),
        attributes: parseOtlpAttributes(eventRecord.attributes, warnings, {
          rawKind: "otlp_event_attributes",
          path: context.path,
          spanId: context.spanId,
          details
        })
      })
    ];
  });
  return events.length > 0 ? events : void 0;
}
function parseOtlpAttributes(value, warnings, context) {
  if (value === void 0) {
    return void 0;
  }
  if (asRecord2(value)) {
    addWarning(
      warnings,
      "nonstandard_otlp_attribute_map",
      "OTLP attributes were an object map; values were preserved as-is.",
      context
    );
    return value;
  }
  if (!Array.isArray(value)) {
    addWarning(warnings, "malformed_otlp_attributes", "OTLP attributes must be an array.", context);
    return void 0;
  }
  const attributes = {};
  value.forEach((attribute, attributeIndex) => {
    const attributeRecord = asRecord2(attribute);
    const details = { ...context.details ?? {}, attribute_index: attributeIndex };
    if (!attributeRecord) {
      addWarning(
        warnings,
        "malformed_otlp_attribute",
        "OTLP attribute must be an object and was skipped.",
        { ...context, details }
      );
      return;
    }
    warnUnknownFields(attributeRecord, OTLP_ATTRIBUTE_FIELDS, warnings, {
      ...context,
      rawKind: context.rawKind ?? "otlp_attribute",
      details
    });
    const key = stringValue2(attributeRecord.key);
    if (!key) {
      addWarning(
        warnings,
        "malformed_otlp_attribute",
        "OTLP attribute was missing key and was skipped.",
        {
          ...context,
          details
        }
      );
      return;
    }
    if (Object.hasOwn(attributes, key)) {
      addWarning(
        warnings,
        "duplicate_otlp_attribute",
        `OTLP attribute "${key}" appeared more than once; the last value was used.`,
        {
          ...context,
          details: { ...details, key }
        }
      );
    }
    const parsed = parseOtlpAnyValue(attributeRecord.value, warnings, {
      ...context,
      rawKind: "otlp_attribute_value",
      details: { ...details, key }
    });
    if (parsed.ok) {
      attributes[key] = parsed.value;
    }
  });
  return Object.keys(attributes).length > 0 ? attributes : void 0;
}
function parseOtlpAnyValue(value, warnings, context) {
  if (isPrimitive(value)) {
    addWarning(
      warnings,
      "nonstandard_otlp_value",
      "OTLP attribute value was primitive; value was preserved as-is.",
      context
    );
    return { ok: true, value };
  }
  const record = asRecord2(value);
  if (!record) {
    addWarning(
      warnings,
      "malformed_otlp_value",
      "OTLP attribute value must be an object.",
      context
    );
    return { ok: false };
  }
  const presentFields = Object.keys(record).filter((key) => OTLP_ANY_VALUE_FIELDS.has(key));
  const unknownFields = Object.keys(record).filter((key) => !OTLP_ANY_VALUE_FIELDS.has(key));
  if (unknownFields.length > 0) {
    addWarning(
      warnings,
      "unknown_otlp_value_field",
      `Unknown OTLP attribute value field(s) ignored: ${unknownFields.join(", ")}.`,
      { ...context, details: { ...context.details ?? {}, fields: unknownFields } }
    );
  }
  if (presentFields.length > 1) {
    addWarning(
      warnings,
      "ambiguous_otlp_value",
      `OTLP attribute value had multiple value fields; ${presentFields[0]} was used.`,
      { ...context, details: { ...context.details ?? {}, fields: presentFields } }
    );
  }
  const field = presentFields[0];
  if (!field) {
    addWarning(
      warnings,
      "malformed_otlp_value",
      "OTLP attribute value did not contain a recognized value field; raw value was preserved.",
      context
    );
    return { ok: true, value };
  }
  switch (field) {
    case "stringValue":
    case "bytesValue":
      return { ok: true, value: stringValue2(record[field]) ?? String(record[field] ?? "") };
    case "boolValue":
      return { ok: true, value: Boolean(record.boolValue) };
    case "intValue":
      return { ok: true, value: integerOrString(record.intValue) };
    case "doubleValue":
      return { ok: true, value: numberOrString(record.doubleValue) };
    case "arrayValue":
      return parseOtlpArrayValue(record.arrayValue, warnings, context);
    case "kvlistValue":
      return parseOtlpKeyValueList(record.kvlistValue, warnings, context);
    default:
      return { ok: true, value };
  }
}
function parseOtlpArrayValue(value, warnings, context) {
  const arrayValue = asRecord2(value);
  if (!arrayValue || !Array.isArray(arrayValue.values)) {
    addWarning(
      warnings,
      "malformed_otlp_array_value",
      "OTLP arrayValue.values must be an array.",
      context
    );
    return { ok: false };
  }
  return {
    ok: true,
    value: arrayValue.values.map(
      (entry, index) => parseOtlpAnyValue(entry, warnings, {
        ...context,
        details: { ...context.details ?? {}, value_index: index }
      }).value
    )
  };
}
function parseOtlpKeyValueList(value, warnings, context) {
  const kvlistValue = asRecord2(value);
  if (!kvlistValue || !Array.isArray(kvlistValue.values)) {
    addWarning(
      warnings,
      "malformed_otlp_kvlist_value",
      "OTLP kvlistValue.values must be an array.",
      context
    );
    return { ok: false };
  }
  return {
    ok: true,
    value: parseOtlpAttributes(kvlistValue.values, warnings, context) ?? {}
  };
}
function normalizeOtlpSpanKind(value, warnings, context) {
  if (value === void 0) {
    return void 0;
  }
  if (typeof value === "string" && value.length > 0) {
    return value.replace(/^SPAN_KIND_/, "");
  }
  if (typeof value !== "number" || !Number.isInteger(value)) {
    addWarning(
      warnings,
      "malformed_span_kind",
      "OTLP span kind was not a string or integer.",
      context
    );
    return void 0;
  }
  if (value === 0) return "INTERNAL";
  if (value === 1) return "SERVER";
  if (value === 2) return "CLIENT";
  if (value === 3) return "PRODUCER";
  if (value === 4 || value === 5) return "CONSUMER";
  addWarning(
    warnings,
    "unknown_span_kind",
    `Unknown OTLP span kind ${value} was preserved as a string.`,
    context
  );
  return String(value);
}
function normalizeOtlpStatus(value, warnings, context) {
  if (value === void 0) {
    return void 0;
  }
  const status = asRecord2(value);
  if (!status) {
    addWarning(warnings, "malformed_otlp_status", "OTLP span status must be an object.", context);
    return void 0;
  }
  warnUnknownFields(status, OTLP_STATUS_FIELDS, warnings, context);
  return dropUndefined2({
    code: normalizeStatusCode(status.code, warnings, context),
    message: stringValue2(status.message)
  });
}
function normalizeStatusCode(value, warnings, context) {
  if (value === void 0) {
    return void 0;
  }
  if (typeof value === "string" && value.length > 0) {
    return value.replace(/^STATUS_CODE_/, "");
  }
  if (typeof value === "number" && Number.isInteger(value)) {
    if (value === 0) return "UNSET";
    if (value === 1) return "OK";
    if (value === 2) return "ERROR";
    addWarning(
      warnings,
      "unknown_status_code",
      `Unknown OTLP status code ${value} was preserved as a string.`,
      context
    );
    return String(value);
  }
  addWarning(
    warnings,
    "malformed_status_code",
    "OTLP status code was not a string or integer.",
    context
  );
  return void 0;
}
function normalizeUnixNano(value, field, warnings, context) {
  if (value === void 0) {
    return void 0;
  }
  if (typeof value === "string" && value.length > 0) {
    if (!/^\d+$/.test(value)) {
      addWarning(
        warnings,
        "malformed_unix_nano",
        `OTLP ${field} was not an unsigned integer string.`,
        context
      );
    }
    return value;
  }
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) {
    return String(Math.trunc(value));
  }
  addWarning(warnings, "malformed_unix_nano", `OTLP ${field} was not a string or number.`, context);
  return void 0;
}
function firstRootSpanId(spans) {
  const spanIds = new Set(spans.map((span) => span.span_id));
  return spans.find(
    (span) => !span.parent_span_id || typeof span.parent_span_id === "string" && !spanIds.has(span.parent_span_id)
  )?.span_id ?? spans[0]?.span_id;
}
function singleDistinctRecord(records) {
  if (records.length === 0) {
    return void 0;
  }
  const unique = new Map(records.map((record) => [stableRecordKey(record), record]));
  return unique.size === 1 ? [...unique.values()][0] : void 0;
}
function stableRecordKey(record) {
  return JSON.stringify(
    Object.keys(record).sort().map((key) => [key, record[key]])
  );
}
function firstString(values) {
  return values.find((value) => typeof value === "string" && value.length > 0);
}
function integerOrString(value) {
  if (typeof value === "number" && Number.isFinite(value)) {
    return value;
  }
  if (typeof value === "string") {
    const numberValue = Number(value);
    return Number.isSafeInteger(numberValue) ? numberValue : value;
  }
  return String(value ?? "");
}
function numberOrString(value) {
  if (typeof value === "number" && Number.isFinite(value)) {
    return value;
  }
  if (typeof value === "string") {
    const numberValue = Number(value);
    return Number.isFinite(numberValue) ? numberValue : value;
  }
  return String(value ?? "");
}
function warnUnknownFields(record, allowed, warnings, context) {
  const unknownFields = Object.keys(record).filter((key) => !allowed.has(key));
  for (const field of unknownFields) {
    addWarning(
      warnings,
      "unknown_otlp_field",
      `Unknown OTLP ${context.rawKind ?? "object"} field "${field}" was ignored.`,
      { ...context, details: { ...context.details ?? {}, field } }
    );
  }
}
function addWarning(warnings, code, message, context = {}) {
  warnings.push(
    dropUndefined2({
      code,
      severity: "warning",
      span_id: context.spanId,
      source_ref: context.path || context.rawKind ? dropUndefined2({
        path: context.path,
        raw_kind: context.rawKind,
        span_id: context.spanId
      }) : void 0,
      message,
      details: context.details
    })
  );
}
function asRecord2(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : void 0;
}
function stringValue2(value) {
  return typeof value === "string" && value.length > 0 ? value : void 0;
}
function isPrimitive(value) {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value === null;
}
function dropUndefined2(value) {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== void 0));
}
function scriptGraderInstruction(graderName, description) {
  const desc = description ? ` This grader: ${description}.` : "";
  return `Run \`agentv eval assert ${graderName} --agent-output <agent_output> --agent-input <original_prompt>\` and check the result.${desc} The command accepts --agent-output (the agent's full response text) and --agent-input (the original user prompt). It returns JSON on stdout: {"score": 0-1, "reasoning": "..."}. A score >= 0.5 means pass (exit 0); below 0.5 means fail (exit 1).`;
}
function deriveGraderNameFromCommand(command) {
  if (!Array.isArray(command) || command.length === 0) return void 0;
  for (const arg of command) {
    if (typeof arg !== "string") continue;
    const match = arg.match(/([^/]+)\.(ts|js|mts|mjs)$/);
    if (match) return match[1] || void 0;
  }
  return void 0;
}
function assertionToNaturalLanguage(entry) {
  const type = entry.type;
  switch (type) {
    case "skill-trigger":
      return null;
    case "llm-rubric":
      return typeof entry.value === "string" ? entry.value : null;
    case "contains":
      return `Output contains '${entry.value}'`;
    case "contains-any": {
      const values = Array.isArray(entry.value) ? entry.value.join("', '") : entry.value;
      return `Output contains any of: '${values}'`;
    }
    case "contains-all": {
      const values = Array.isArray(entry.value) ? entry.value.join("', '") : entry.value;
      return `Output contains all of: '${values}'`;
    }
    case "icontains":
      return `Output contains (case-insensitive) '${entry.value}'`;
    case "regex":
      return `Output matches regex: ${entry.value}`;
    case "equals":
      return `Output exactly equals: ${entry.value}`;
    case "is-json":
      return "Output is valid JSON";
    case "starts-with":
      return `Output starts with '${entry.value}'`;
    case "ends-with":
      return `Output ends with '${entry.value}'`;
    case "llm-grader":
      if (Array.isArray(entry.rubrics) && entry.rubrics.length > 0) {
        return null;
      }
      return typeof entry.prompt === "string" ? entry.prompt : null;
    case "tool-trajectory": {
      const expectedArr = Array.isArray(entry.expected) ? entry.expected : [];
      const tools = expectedArr.map((e) => e.tool).filter(Boolean).join(", ");
      return tools ? `Agent called tools in order: ${tools}` : "Agent followed expected tool trajectory";
    }
    case "script": {
      const graderName = entry.metric ?? deriveGraderNameFromCommand(entry.command) ?? "script";
      const desc = typeof entry.description === "string" ? entry.description : void 0;
      return scriptGraderInstruction(graderName, desc);
    }
    case "field-accuracy": {
      const fieldPaths = Array.isArray(entry.fields) ? entry.fields.map((f) => f.path).filter(Boolean).join(", ") : "";
      return fieldPaths ? `Fields ${fieldPaths} match expected values` : "Fields match expected values";
    }
    case "latency":
      return typeof entry.threshold === "number" ? `Response time under ${entry.threshold}ms` : "Response time within threshold";
    case "cost":
      return typeof entry.budget === "number" ? `Cost under $${entry.budget}` : "Cost within budget";
    case "token-usage":
      return "Token usage within limits";
    case "execution-metrics":
      return "Execution within metric bounds";
    default: {
      if (entry.command !== void 0 && type) {
        return scriptGraderInstruction(deriveGraderNameFromCommand(entry.command) ?? type);
      }
      if (typeof entry.criteria === "string") return entry.criteria;
      if (typeof entry.prompt === "string") return entry.prompt;
      return type ? `${type} assertion` : null;
    }
  }
}
function assertionToNaturalLanguageList(entry) {
  if (entry.type === "llm-rubric") {
    if (Array.isArray(entry.value) && entry.value.length > 0) {
      return entry.value.map((rubric) => {
        if (typeof rubric === "string") return rubric;
        if (!rubric || typeof rubric !== "object") return void 0;
        const item = rubric;
        return item.outcome ?? item.criteria ?? item.id;
      }).filter((value) => typeof value === "string");
    }
  }
  if (entry.type === "llm-grader") {
    if (Array.isArray(entry.rubrics) && entry.rubrics.length > 0) {
      return entry.rubrics.map((r) => r.outcome ?? r.criteria ?? r.id).filter((s) => typeof s === "string");
    }
  }
  const nl = assertionToNaturalLanguage(entry);
  return nl !== null ? [nl] : [];
}
function extractTriggerAssertions(assertions) {
  return assertions.filter((a) => a.type === "skill-trigger");
}
function extractInput(rawCase) {
  const files = Array.isArray(rawCase.input_files) ? rawCase.input_files.filter((f) => typeof f === "string") : [];
  const input = rawCase.input;
  if (typeof input === "string") {
    return { prompt: input, files };
  }
  if (Array.isArray(input)) {
    let prompt = "";
    for (const msg of input) {
      if (msg.role !== "user") continue;
      if (typeof msg.content === "string") {
        prompt = msg.content;
      } else if (Array.isArray(msg.content)) {
        for (const block of msg.content) {
          if (block.type === "text" && typeof block.value === "string") prompt = block.value;
          else if (block.type === "file" && typeof block.value === "string")
            files.push(block.value);
        }
      }
    }
    return { prompt, files };
  }
  return { prompt: "", files };
}
function extractExpectedOutput(raw) {
  if (raw === void 0 || raw === null) return void 0;
  if (typeof raw === "string") return raw;
  if (Array.isArray(raw)) {
    for (let i = raw.length - 1; i >= 0; i--) {
      const msg = raw[i];
      if (typeof msg.content === "string") return msg.content;
    }
    return void 0;
  }
  return JSON.stringify(raw);
}
function transpileEvalYaml(suite, source = "EVAL.yaml") {
  const files = /* @__PURE__ */ new Map();
  if (typeof suite !== "object" || suite === null) {
    throw new Error(`Invalid EVAL.yaml: expected an object in '${source}'`);
  }
  const rawSuite = suite;
  if (!Array.isArray(rawSuite.tests)) {
    throw new Error(`Invalid EVAL.yaml: missing 'tests' array in '${source}'`);
  }
  const suiteAssertions = rawSuite.assert ?? [];
  const suiteNlAssertions = suiteAssertions.filter((a) => a.type !== "skill-trigger").flatMap(assertionToNaturalLanguageList);
  function getSkillFile(skillName) {
    const existing = files.get(skillName);
    if (existing) return existing;
    const created = { skill_name: skillName, evals: [] };
    files.set(skillName, created);
    return created;
  }
  const tests = rawSuite.tests;
  for (let idx = 0; idx < tests.length; idx++) {
    const rawCase = tests[idx];
    const caseAssertions = rawCase.assert ?? [];
    if (typeof rawCase.criteria === "string" && rawCase.criteria.trim() && rawCase.assert !== void 0) {
      throw new Error(
        `Invalid EVAL.yaml test '${rawCase.id ?? idx + 1}' in '${source}': do not combine test-level 'criteria' with 'assert'. Put human-readable case descriptions in 'description', or express grading text as an explicit assertion such as { type: 'llm-rubric', value: ... }.`
      );
    }
    const nlAssertions = [];
    if (typeof rawCase.criteria === "string" && rawCase.criteria.trim()) {
      nlAssertions.push(rawCase.criteria.trim());
    }
    for (const entry of caseAssertions) {
      if (entry.type !== "skill-trigger") {
        nlAssertions.push(...assertionToNaturalLanguageList(entry));
      }
    }
    nlAssertions.push(...suiteNlAssertions);
    const triggerJudges = extractTriggerAssertions(caseAssertions);
    const { prompt, files: inputFiles } = extractInput(rawCase);
    const expectedOutput = extractExpectedOutput(rawCase.expected_output);
    const numericId = idx + 1;
    const baseCase = {
      id: numericId,
      prompt,
      ...expectedOutput !== void 0 && { expected_output: expectedOutput },
      ...inputFiles.length > 0 && { files: inputFiles },
      assertions: nlAssertions
    };
    if (triggerJudges.length === 0) {
      const noSkillFile2 = getSkillFile("_no-skill");
      noSkillFile2.evals.push({ ...baseCase });
    } else {
      for (const tj of triggerJudges) {
        const skillName = typeof tj.skill === "string" ? tj.skill : "_no-skill";
        const shouldTrigger = tj.should_trigger !== false;
        const skillFile = getSkillFile(skillName);
        skillFile.evals.push({ ...baseCase, should_trigger: shouldTrigger });
      }
    }
  }
  const noSkillFile = files.get("_no-skill");
  if (noSkillFile && noSkillFile.evals.length > 0) {
    let dominantSkill = null;
    let maxCount = 0;
    for (const [name, f] of files) {
      if (name !== "_no-skill" && f.evals.length > maxCount) {
        maxCount = f.evals.length;
        dominantSkill = name;
      }
    }
    if (dominantSkill) {
      const targetFile = getSkillFile(dominantSkill);
      for (const evalCase of noSkillFile.evals) {
        targetFile.evals.push(evalCase);
      }
      files.delete("_no-skill");
    }
  }
  return { files, warnings: [] };
}
function transpileEvalYamlFile(evalYamlPath) {
  const content = readFileSync(evalYamlPath, "utf8");
  const parsed = parseYamlValue(content);
  return transpileEvalYaml(parsed, path.basename(evalYamlPath));
}
function getOutputFilenames(result) {
  const names = /* @__PURE__ */ new Map();
  if (result.files.size === 1) {
    for (const [skill] of result.files) {
      names.set(skill, "evals.json");
    }
  } else {
    for (const [skill] of result.files) {
      const safeName = skill.replace(/[^a-zA-Z0-9_-]/g, "_");
      names.set(skill, `${safeName}.evals.json`);
    }
  }
  return names;
}
function matchesFilter(id, filter) {
  return typeof filter === "string" ? micromatch.isMatch(id, filter) : filter.some((pattern) => micromatch.isMatch(id, pattern));
}
function selectSingleCase(options) {
  const selected = options.testId ? options.evalCases.filter((evalCase) => evalCase.id === options.testId) : options.filter ? options.evalCases.filter((evalCase) => matchesFilter(evalCase.id, options.filter ?? "")) : options.evalCases;
  if (selected.length !== 1) {
    const selector = options.testId ? `test_id "${options.testId}"` : options.filter ? `filter "${Array.isArray(options.filter) ? options.filter.join(",") : options.filter}"` : "the eval file";
    throw new Error(
      `prepareEvalWorkspace requires exactly one test, but ${selector} matched ${selected.length} in ${options.evalPath}.`
    );
  }
  return selected[0];
}
function promptModeForTarget(target) {
  return AGENT_PROVIDER_KINDS.includes(target.kind) || target.kind === "cli" ? "agent" : "lm";
}
function toRepoPins(repos) {
  return (repos ?? []).map((repo) => ({
    ...repo.path !== void 0 && { path: repo.path },
    ...repo.repo !== void 0 && { repo: repo.repo },
    ...repo.commit !== void 0 && { commit: repo.commit },
    ...repo.ancestor !== void 0 && { ancestor: repo.ancestor },
    ...repo.sparse !== void 0 && { sparse: repo.sparse }
  }));
}
async function prepareEvalWorkspace(options) {
  const evalPath = path2.resolve(options.testFilePath);
  const evalRunId = randomUUID();
  const evalCases = options.evalCases ?? await loadTests(evalPath, options.repoRoot, {
    verbose: options.verbose,
    filter: options.testId ?? options.filter
  });
  const evalCase = selectSingleCase({
    evalCases,
    testId: options.testId,
    filter: options.filter,
    evalPath
  });
  const evalDir = path2.dirname(evalPath);
  const workers = options.maxConcurrency ?? 1;
  const retainOnSuccess = options.retainOnSuccess ?? (options.keepWorkspaces ? "keep" : "cleanup");
  const retainOnFailure = options.retainOnFailure ?? (options.cleanupWorkspaces ? "cleanup" : "keep");
  const formattingMode = promptModeForTarget(options.target);
  const promptInputs = await buildPromptInputs(evalCase, formattingMode);
  let sharedSetup;
  try {
    sharedSetup = await prepareSharedWorkspaceSetup({
      evalRunId,
      evalCases: [evalCase],
      targetHooks: options.targetHooks,
      evalDir,
      verbose: options.verbose,
      workers,
      workspacePath: options.workspacePath,
      legacyWorkspacePath: options.workspace
    });
    const selectedWorkspacePath = sharedSetup.sharedWorkspacePath;
    const selectedBaselineCommit = sharedSetup.sharedBaselineCommit;
    const caseSetup = await prepareEvalCaseWorkspace({
      evalCase,
      targetName: options.target.name,
      evalRunId,
      sharedWorkspacePath: selectedWorkspacePath,
      sharedBaselineCommit: selectedBaselineCommit,
      suiteWorkspaceFile: sharedSetup.suiteWorkspaceFile,
      repoManager: sharedSetup.repoManager,
      evalDir,
      cleanupWorkspaces: options.cleanupWorkspaces,
      targetHooks: options.targetHooks,
      sharedExtensionState: sharedSetup.extensionState,
      setupDebug: options.verbose
    });
    if (!caseSetup.workspacePath) {
      throw new Error(
        `No workspace was materialized for test "${evalCase.id}". Add environment.workdir before preparing an external attempt, or use an internal workspace override for private runtime plumbing.`
      );
    }
    return {
      evalPath,
      testId: evalCase.id,
      target: options.target.name,
      evalRunId,
      workspacePath: caseSetup.workspacePath,
      ...caseSetup.caseWorkspaceFile !== void 0 && {
        workspaceFile: caseSetup.caseWorkspaceFile
      },
      createdAt: (options.now ?? (() => /* @__PURE__ */ new Date()))().toISOString(),
      hookExecutions: [...sharedSetup.hookExecutions, ...caseSetup.hookExecutions],
      ...caseSetup.extensionState?.providerContext !== void 0 && {
        providerContext: caseSetup.extensionState.providerContext
      },
      ...caseSetup.extensionState?.metadata !== void 0 && {
        metadata: caseSetup.extensionState.metadata
      },
      repoPins: toRepoPins(evalCase.workspace?.repos),
      baseline: caseSetup.baselineCommit ? { status: "initialized", commit: caseSetup.baselineCommit } : { status: "unavailable" },
      promptSource: {
        kind: "eval_case",
        formattingMode,
        question: promptInputs.question,
        ...promptInputs.systemMessage !== void 0 && {
          systemMessage: promptInputs.systemMessage
        },
        ...promptInputs.chatPrompt !== void 0 && { chatPrompt: promptInputs.chatPrompt }
      },
      cleanupPolicy: {
        mode: sharedSetup.configuredMode,
        retainOnSuccess,
        retainOnFailure,
        manualCleanup: true
      },
      sharedWorkspace: caseSetup.isSharedWorkspace
    };
  } catch (error) {
    if (sharedSetup) {
      await releaseSharedWorkspaceSetup(sharedSetup).catch(() => {
      });
    }
    throw error;
  }
}
var ExecutionConfigSchema = external_exports.object({
  /** General eval parallelism (default: 3) */
  maxConcurrency: external_exports.number().int().min(1).max(50).optional(),
  /** Maximum retries on failure (default: 2) */
  maxRetries: external_exports.number().int().min(0).optional(),
  /** Agent timeout in milliseconds. No timeout if not set. */
  agentTimeoutMs: external_exports.number().int().min(0).optional(),
  /** Enable verbose logging */
  verbose: external_exports.boolean().optional(),
  /** Always keep temp workspaces after eval */
  keepWorkspaces: external_exports.boolean().optional()
}).passthrough().superRefine((value, ctx) => {
  const supportedFields = /* @__PURE__ */ new Set([
    "maxConcurrency",
    "maxRetries",
    "agentTimeoutMs",
    "verbose",
    "keepWorkspaces"
  ]);
  if ("otelFile" in value) {
    ctx.addIssue({
      code: external_exports.ZodIssueCode.custom,
      path: ["otelFile"],
      message: "execution.otelFile has been removed. Emit OpenTelemetry/OpenInference traces from the system under test or provider and correlate AgentV run artifacts with external_trace metadata."
    });
  }
  for (const key of Object.keys(value)) {
    if (!supportedFields.has(key) && key !== "otelFile") {
      ctx.addIssue({
        code: external_exports.ZodIssueCode.custom,
        path: [key],
        message: `Unsupported execution field '${key}'`
      });
    }
  }
}).transform(({ maxConcurrency, maxRetries, agentTimeoutMs, verbose, keepWorkspaces }) => ({
  ...maxConcurrency !== void 0 && { maxConcurrency },
  ...maxRetries !== void 0 && { maxRetries },
  ...agentTimeoutMs !== void 0 && { agentTimeoutMs },
  ...verbose !== void 0 && { verbose },
  ...keepWorkspaces !== void 0 && { keepWorkspaces }
}));
var AgentVConfigSchema = external_exports.object({
  /** Default execution settings */
  execution: ExecutionConfigSchema.optional(),
  /** Output settings */
  output: external_exports.object({
    /** Default eval run artifact directory */
    dir: external_exports.string().optional()
  }).strict().optional(),
  /** Response caching */
  cache: external_exports.object({
    /** Enable response caching */
    enabled: external_exports.boolean().optional(),
    /** Response cache directory */
    path: external_exports.string().optional()
  }).optional(),
  /** Cost and duration limits */
  limits: external_exports.object({
    /** Maximum cost per run in USD */
    maxCostUsd: external_exports.number().min(0).optional(),
    /** Maximum duration per run in milliseconds */
    maxDurationMs: external_exports.number().int().min(0).optional()
  }).optional(),
  /** Lifecycle hooks */
  hooks: external_exports.object({
    /**
     * Shell command to run once at agentv startup, before any command executes.
     * stdout is parsed for env var exports (`KEY=value` or `export KEY="value"`)
     * and injected into process.env. Keys already set in the environment are
     * not overwritten — existing env always takes priority.
     * stderr is forwarded to the user. Non-zero exit aborts with an error.
     */
    beforeSession: external_exports.string().optional()
  }).optional(),
  /** Project-local reusable references for fields that support ref://name */
  refs: external_exports.record(external_exports.string().min(1)).optional()
});
function defineConfig(config) {
  return AgentVConfigSchema.parse(config);
}
var CONFIG_FILE_NAMES = [
  "agentv.config.ts",
  "agentv.config.js",
  "agentv.config.mts",
  "agentv.config.mjs",
  ".agentv/config.ts",
  ".agentv/config.js"
];
async function loadTsConfig(projectRoot) {
  const { existsSync: existsSync3 } = await import("node:fs");
  const { pathToFileURL } = await import("node:url");
  const { join } = await import("node:path");
  for (const fileName of CONFIG_FILE_NAMES) {
    const filePath = join(projectRoot, fileName);
    if (!existsSync3(filePath)) {
      continue;
    }
    try {
      const fileUrl = pathToFileURL(filePath).href;
      const mod = await import(fileUrl);
      const config = mod.default ?? mod;
      return AgentVConfigSchema.parse(config);
    } catch (error) {
      const msg = error instanceof Error ? error.message : String(error);
      throw new Error(`Failed to load config from ${filePath}: ${msg}`);
    }
  }
  return null;
}
var rubricItemSchema = external_exports.object({
  id: external_exports.string().describe("Short identifier for this rubric (e.g., clarity, completeness)"),
  outcome: external_exports.string().describe("Concrete expected outcome for this rubric item"),
  weight: external_exports.number().default(1).describe("Relative importance (default 1.0)"),
  required: external_exports.boolean().default(true).describe("Whether this is a mandatory requirement")
});
var rubricGenerationSchema = external_exports.object({
  rubrics: external_exports.array(rubricItemSchema).describe("List of evaluation rubrics")
});
async function generateRubrics(options) {
  const { criteria, question, referenceAnswer, provider } = options;
  const prompt = buildPrompt(criteria, question, referenceAnswer);
  const system = `You are an expert at creating evaluation rubrics.
You must return a valid JSON object matching this schema:
{
  "rubrics": [
    {
      "id": "string (short identifier)",
      "outcome": "string (concrete expected outcome for this rubric item)",
      "weight": number (default 1.0),
      "required": boolean (default true)
    }
  ]
}`;
  let result;
  let lastError;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const response = await provider.invoke({
        question: prompt,
        systemPrompt: system
      });
      const text = extractLastAssistantContent2(response.output);
      const cleaned = text.replace(/```json\n?|```/g, "").trim();
      result = rubricGenerationSchema.parse(JSON.parse(cleaned));
      break;
    } catch (e) {
      lastError = e instanceof Error ? e : new Error(String(e));
    }
  }
  if (!result) {
    throw new Error(`Failed to parse generated rubrics after 3 attempts: ${lastError?.message}`);
  }
  return result.rubrics;
}
function buildPrompt(criteria, question, referenceAnswer) {
  const parts = [
    "You are an expert at creating evaluation rubrics.",
    "Given the expected outcome (and optionally the question and reference answer),",
    "generate a list of specific, measurable rubric items to evaluate whether an answer meets the expected outcome.",
    "",
    "Each rubric should:",
    "- Be specific and testable",
    "- Have a short, descriptive ID",
    "- Include a clear expected outcome statement (what a good answer must demonstrate for this rubric)",
    "- Indicate if it is required (mandatory) or optional",
    "- Have an appropriate weight (default 1.0, use higher values for more important aspects)",
    "",
    "Generate 3-7 rubric items that comprehensively cover the expected outcome.",
    "",
    "[[ ## criteria ## ]]",
    criteria,
    ""
  ];
  if (question && question.trim().length > 0) {
    parts.push("[[ ## question ## ]]", question, "");
  }
  if (referenceAnswer && referenceAnswer.trim().length > 0) {
    parts.push("[[ ## reference_answer ## ]]", referenceAnswer, "");
  }
  return parts.join("\n");
}
var execFileAsync = promisify(execFile);
var RESULTS_REPO_RESULTS_DIR = ".agentv/results";
var RESULTS_REPO_RUNS_DIR = ".";
var RESULTS_REPO_INDEXES_DIR = ".indexes";
var RESULTS_REPO_CACHE_DIR = ".cache";
var RESULTS_REPO_TRACKED_DOT_DIRS = [RESULTS_REPO_INDEXES_DIR, RESULTS_REPO_CACHE_DIR];
var GIT_RESULTS_INDEX_CACHE_SCHEMA_VERSION = "agentv.git_results_index_cache.v1";
var GIT_RESULTS_INDEX_LAYOUT_VERSION = "agentv.results_repo_branch_root.v1";
var FALLBACK_RESULTS_REPO_COMMIT_EMAIL = "agentv@results-repo";
var FALLBACK_RESULTS_REPO_COMMIT_NAME = "AgentV Results";
var GIT_COMMIT_IDENTITY_ENV_KEYS = [
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL"
];
var GIT_ENV_INHERIT_ALLOWLIST = /* @__PURE__ */ new Set([
  "GIT_ASKPASS",
  "GIT_PASSWORD",
  "GIT_SSH_COMMAND",
  "GIT_TOKEN",
  "GIT_USERNAME"
]);
var DEFAULT_RESULTS_BRANCH = AGENTV_RESULTS_PRIMARY_REF;
var GIT_EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
var RESULTS_REPO_GENESIS_MESSAGE = "chore(results): initialize AgentV results branch";
var RESULTS_REPO_GENESIS_DATE = "@0 +0000";
var RESULT_INDEX_FILENAME2 = "index.jsonl";
var RUN_INTERNAL_DIRNAME = ".internal";
var RESULTS_REPO_GITATTRIBUTES_FILE = ".gitattributes";
var RESULTS_REPO_GITATTRIBUTES_CONTENT = `# Managed by AgentV. Artifact-aware merge so results sync never force-pushes.
${RESULTS_REPO_INDEXES_DIR}/*.jsonl merge=union
*/.internal/index.jsonl merge=union
`;
var activeResultsRepoSyncs = /* @__PURE__ */ new Set();
function sanitizeRepoSlug(repo) {
  return repo.trim().replace(/[^A-Za-z0-9._-]+/g, "-");
}
function withFriendlyGitHubAuthError(error) {
  const message = error instanceof Error ? error.message : String(error);
  const lower = message.toLowerCase();
  if (lower.includes("authentication failed") || lower.includes("could not read username") || lower.includes("permission denied") || lower.includes("not logged into any github hosts")) {
    return new Error(`${message}. Run 'gh auth login' to authenticate.`);
  }
  return new Error(message);
}
function expandHome(p) {
  if (p === "~" || p.startsWith("~/") || p.startsWith("~\\")) {
    return path3.join(os.homedir(), p.slice(1));
  }
  return p;
}
function resolveLocalPath(p, baseDir) {
  const expanded = expandHome(p);
  return path3.isAbsolute(expanded) ? expanded : path3.resolve(baseDir, expanded);
}
function isNormalizedResultsConfig(config) {
  return typeof config.storageBranchWorktree === "boolean";
}
function normalizeResultsConfig(config, options) {
  if (isNormalizedResultsConfig(config)) {
    return config;
  }
  const baseDir = options?.baseDir ?? process.cwd();
  const repoUrl = (config.repo_url ?? config.repo)?.trim();
  const explicitPath = config.path?.trim();
  const repoPath = config.repo_path?.trim() ?? (repoUrl ? void 0 : explicitPath);
  const explicitClonePath = repoUrl ? explicitPath : void 0;
  const repo = repoUrl ?? repoPath ?? "";
  const branch = config.branch?.trim() || (repoPath ? DEFAULT_RESULTS_BRANCH : void 0);
  const useStorageBranchWorktree = Boolean(repoPath || repoUrl && explicitClonePath && branch);
  const remote = config.remote?.trim() || "origin";
  const autoPush = config.auto_push === true;
  const requirePush = config.require_push === true;
  const resolvedRepoPath = repoPath ? resolveLocalPath(repoPath, baseDir) : void 0;
  const resolvedPath = explicitClonePath ? resolveLocalPath(explicitClonePath, baseDir) : repoUrl ? path3.join(getAgentvDataDir(), "results", sanitizeRepoSlug(repoUrl)) : resolvedRepoPath ?? path3.join(getAgentvDataDir(), "results", sanitizeRepoSlug(repo));
  return {
    mode: "github",
    repo,
    ...repoUrl ? { repo_url: repoUrl } : {},
    ...resolvedRepoPath ? { repo_path: resolvedRepoPath } : {},
    ...branch ? { branch } : {},
    remote,
    path: resolvedPath,
    auto_push: autoPush,
    require_push: requirePush,
    push_conflict_policy: "block",
    storageBranchWorktree: useStorageBranchWorktree
  };
}
var GITHUB_OWNER_REPO_SHORTHAND = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
function isExplicitRemoteUrl(value) {
  return value.includes("://") || value.startsWith("git@");
}
function resolveResultsRepoUrl(repo) {
  const trimmed = repo.trim();
  if (isExplicitRemoteUrl(trimmed)) {
    return trimmed;
  }
  if (GITHUB_OWNER_REPO_SHORTHAND.test(trimmed)) {
    return `https://github.com/${trimmed}.git`;
  }
  return trimmed;
}
function getResultsRepoLocalPaths(repo) {
  const rootDir = path3.join(getAgentvDataDir(), "cache", "results-repo", sanitizeRepoSlug(repo));
  return {
    rootDir,
    repoDir: path3.join(rootDir, "repo"),
    statusFile: path3.join(rootDir, "status.json")
  };
}
function usesStorageBranchWorktree(config) {
  return config.storageBranchWorktree === true || Boolean(config.repo_path);
}
function readPersistedStatus(statusFile) {
  if (!existsSync(statusFile)) {
    return {};
  }
  try {
    return JSON.parse(readFileSync2(statusFile, "utf8"));
  } catch {
    return {};
  }
}
function writePersistedStatus(statusFile, status) {
  mkdirSync(path3.dirname(statusFile), { recursive: true });
  writeFileSync(statusFile, `${JSON.stringify(status, null, 2)}
`, "utf8");
}
async function runCommand(executable, args, options) {
  try {
    const { stdout, stderr } = await execFileAsync(executable, [...args], {
      cwd: options?.cwd,
      env: options?.env ?? process.env
    });
    return { stdout, stderr, exitCode: 0 };
  } catch (error) {
    if (options?.check === false && error && typeof error === "object") {
      const execError = error;
      return {
        stdout: execError.stdout ?? "",
        stderr: execError.stderr ?? "",
        exitCode: typeof execError.code === "number" ? execError.code : 1
      };
    }
    throw withFriendlyGitHubAuthError(error);
  }
}
function getGitEnv() {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== void 0 && (!key.startsWith("GIT_") || GIT_ENV_INHERIT_ALLOWLIST.has(key))) {
      env[key] = value;
    }
  }
  env.GIT_TERMINAL_PROMPT = "0";
  return env;
}
async function runGit(args, options) {
  return runCommand("git", args, { ...options, env: { ...getGitEnv(), ...options?.env } });
}
async function runGh(args, options) {
  return runCommand("gh", args, options);
}
function gitErrorText(error) {
  const parts = [];
  if (error && typeof error === "object") {
    const record = error;
    if (typeof record.stdout === "string") parts.push(record.stdout);
    if (typeof record.stderr === "string") parts.push(record.stderr);
    if (typeof record.message === "string") parts.push(record.message);
  } else if (typeof error === "string") {
    parts.push(error);
  }
  return parts.join("\n").toLowerCase();
}
function isMissingGitIdentityError(error) {
  const text = gitErrorText(error);
  return text.includes("author identity unknown") || text.includes("committer identity unknown") || text.includes("please tell me who you are") || text.includes("unable to auto-detect email address") || text.includes("empty ident name");
}
function fallbackResultsRepoCommitEnv() {
  return {
    GIT_AUTHOR_NAME: FALLBACK_RESULTS_REPO_COMMIT_NAME,
    GIT_AUTHOR_EMAIL: FALLBACK_RESULTS_REPO_COMMIT_EMAIL,
    GIT_COMMITTER_NAME: FALLBACK_RESULTS_REPO_COMMIT_NAME,
    GIT_COMMITTER_EMAIL: FALLBACK_RESULTS_REPO_COMMIT_EMAIL
  };
}
function configuredGitCommitIdentityEnv() {
  const env = {};
  for (const key of GIT_COMMIT_IDENTITY_ENV_KEYS) {
    const value = process.env[key];
    if (value !== void 0) {
      env[key] = value;
    }
  }
  return env;
}
async function runGitWithFallbackCommitIdentity(args, options) {
  const env = {
    ...configuredGitCommitIdentityEnv(),
    ...options.env
  };
  try {
    return await runGit(args, { ...options, env });
  } catch (error) {
    if (!isMissingGitIdentityError(error)) {
      throw error;
    }
    return runGit(args, {
      ...options,
      env: {
        ...env,
        ...fallbackResultsRepoCommitEnv()
      }
    });
  }
}
async function resolveDefaultBranch(repoDir) {
  try {
    const { stdout } = await runGit(["symbolic-ref", "refs/remotes/origin/HEAD"], { cwd: repoDir });
    const ref = stdout.trim();
    const prefix = "refs/remotes/origin/";
    if (ref.startsWith(prefix)) {
      return ref.slice(prefix.length);
    }
  } catch {
  }
  for (const candidate of ["main", "master"]) {
    try {
      await runGit(["rev-parse", "--verify", `origin/${candidate}`], { cwd: repoDir });
      return candidate;
    } catch {
    }
  }
  return "main";
}
async function fetchResultsRepo(repoDir, remote = "origin", branch) {
  if (branch) {
    await fetchResultsBranchRef(repoDir, remote, branch);
    await runGit(["remote", "prune", remote], { cwd: repoDir, check: false });
    return;
  }
  await runGit(["fetch", remote, "--prune"], { cwd: repoDir });
}
function isMissingRemoteBranchFetch(stderr) {
  const lower = stderr.toLowerCase();
  return lower.includes("couldn't find remote ref") || lower.includes("could not find remote ref");
}
async function fetchResultsBranchRef(repoDir, remote, branch) {
  const { exitCode, stderr } = await runGit(
    ["fetch", remote, `+refs/heads/${branch}:refs/remotes/${remote}/${branch}`],
    {
      cwd: repoDir,
      check: false
    }
  );
  const fetchError = stderr.trim();
  if (exitCode !== 0 && !isMissingRemoteBranchFetch(fetchError)) {
    throw new Error(fetchError);
  }
}
async function fetchResultsArtifactRef(repoDir, remote, branch) {
  const refspec = `+refs/heads/${branch}:refs/remotes/${remote}/${branch}`;
  await runGit(["fetch", "--filter=blob:none", remote, refspec], {
    cwd: repoDir,
    check: false
  });
  if (!await gitRefExists(repoDir, `refs/remotes/${remote}/${branch}`)) {
    await fetchResultsBranchRef(repoDir, remote, branch);
  }
}
function remoteBranchRef(branch, remote = "origin") {
  return `${remote}/${branch}`;
}
async function gitRefExists(repoDir, ref) {
  const { stdout } = await runGit(["rev-parse", "--verify", `${ref}^{commit}`], {
    cwd: repoDir,
    check: false
  });
  return stdout.trim().length > 0;
}
async function configuredResultsBranchRef(repoDir, config) {
  if (!config.branch) {
    return void 0;
  }
  const remoteRef = remoteBranchRef(config.branch, config.remote);
  if (await gitRefExists(repoDir, remoteRef)) {
    return remoteRef;
  }
  if (await gitRefExists(repoDir, config.branch)) {
    return config.branch;
  }
  return void 0;
}
async function assertConfiguredResultsBranchExists(repoDir, config) {
  return configuredResultsBranchRef(repoDir, config);
}
async function localBranchExists(repoDir, branch) {
  const { stdout } = await runGit(["rev-parse", "--verify", `refs/heads/${branch}`], {
    cwd: repoDir,
    check: false
  });
  return stdout.trim().length > 0;
}
async function checkoutConfiguredResultsBranch(repoDir, config) {
  const branch = config.branch;
  if (!branch) {
    return void 0;
  }
  const remoteRef = await assertConfiguredResultsBranchExists(repoDir, config);
  if (!remoteRef) {
    await createOrphanResultsBranch(repoDir, branch);
    await runGit(["checkout", branch], { cwd: repoDir });
    return void 0;
  }
  const currentBranch = await getCurrentBranch(repoDir);
  if (currentBranch !== branch) {
    if (await localBranchExists(repoDir, branch)) {
      await runGit(["checkout", branch], { cwd: repoDir });
    } else {
      await runGit(["checkout", "--track", "-b", branch, remoteRef], { cwd: repoDir });
    }
  }
  if (remoteRef === remoteBranchRef(branch, config.remote)) {
    await runGit(["branch", "--set-upstream-to", remoteRef, branch], {
      cwd: repoDir,
      check: false
    });
  }
  return remoteRef;
}
async function createOrphanResultsBranch(repoDir, branch) {
  await runGit(["update-ref", `refs/heads/${branch}`, await createResultsGenesisCommit(repoDir)], {
    cwd: repoDir
  });
}
async function createResultsGenesisCommit(repoDir) {
  const { stdout } = await runGit(
    ["commit-tree", GIT_EMPTY_TREE, "-m", RESULTS_REPO_GENESIS_MESSAGE],
    {
      cwd: repoDir,
      env: {
        ...fallbackResultsRepoCommitEnv(),
        GIT_AUTHOR_DATE: RESULTS_REPO_GENESIS_DATE,
        GIT_COMMITTER_DATE: RESULTS_REPO_GENESIS_DATE
      }
    }
  );
  return stdout.trim();
}
async function isGitRepository(repoDir) {
  try {
    const { stdout } = await runGit(["rev-parse", "--is-inside-work-tree"], { cwd: repoDir });
    return stdout.trim() === "true";
  } catch {
    return false;
  }
}
async function resolveGitTopLevel(repoDir) {
  const { stdout } = await runGit(["rev-parse", "--show-toplevel"], { cwd: repoDir });
  return stdout.trim() || repoDir;
}
async function ensureResultsMergeConfig(repoDir) {
  let gitDir;
  try {
    const { stdout } = await runGit(["rev-parse", "--git-common-dir"], { cwd: repoDir });
    const resolved = stdout.trim();
    gitDir = resolved ? path3.isAbsolute(resolved) ? resolved : path3.join(repoDir, resolved) : path3.join(repoDir, ".git");
  } catch {
    return;
  }
  writeResultsInfoAttributes(gitDir);
}
var RESULTS_INFO_ATTRIBUTES_BEGIN = "# >>> agentv results merge attributes >>>";
var RESULTS_INFO_ATTRIBUTES_END = "# <<< agentv results merge attributes <<<";
function writeResultsInfoAttributes(gitDir) {
  const infoDir = path3.join(gitDir, "info");
  const attributesPath = path3.join(infoDir, "attributes");
  const managedBlock = `${RESULTS_INFO_ATTRIBUTES_BEGIN}
${RESULTS_REPO_GITATTRIBUTES_CONTENT.trimEnd()}
${RESULTS_INFO_ATTRIBUTES_END}
`;
  let existing = "";
  try {
    existing = readFileSync2(attributesPath, "utf8");
  } catch {
    existing = "";
  }
  const blockPattern = new RegExp(
    `${escapeRegExp(RESULTS_INFO_ATTRIBUTES_BEGIN)}[\\s\\S]*?${escapeRegExp(
      RESULTS_INFO_ATTRIBUTES_END
    )}\\n?`
  );
  const withoutManaged = existing.replace(blockPattern, "");
  const next = withoutManaged.length > 0 && !withoutManaged.endsWith("\n") ? `${withoutManaged}
${managedBlock}` : `${withoutManaged}${managedBlock}`;
  if (next === existing) {
    return;
  }
  mkdirSync(infoDir, { recursive: true });
  writeFileSync(attributesPath, next);
}
function escapeRegExp(value) {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
async function addResultsGitattributesToIndex(repoDir, indexEnv) {
  const { stdout: existing } = await runGit(
    ["cat-file", "-p", `:0:${RESULTS_REPO_GITATTRIBUTES_FILE}`],
    { cwd: repoDir, env: indexEnv, check: false }
  );
  if (existing === RESULTS_REPO_GITATTRIBUTES_CONTENT) {
    return;
  }
  const scratchDir = mkdtempSync(path3.join(os.tmpdir(), "agentv-results-attrs-"));
  try {
    const scratchFile = path3.join(scratchDir, RESULTS_REPO_GITATTRIBUTES_FILE);
    writeFileSync(scratchFile, RESULTS_REPO_GITATTRIBUTES_CONTENT);
    const { stdout: blob } = await runGit(["hash-object", "-w", "--no-filters", scratchFile], {
      cwd: repoDir
    });
    await runGit(
      [
        "update-index",
        "--add",
        "--cacheinfo",
        `100644,${blob.trim()},${RESULTS_REPO_GITATTRIBUTES_FILE}`
      ],
      { cwd: repoDir, env: indexEnv }
    );
  } finally {
    rmSync(scratchDir, { recursive: true, force: true });
  }
}
function updateStatusFile(config, patch) {
  const repo = normalizeResultsConfig(config).repo;
  const cachePaths = getResultsRepoLocalPaths(repo);
  const current = readPersistedStatus(cachePaths.statusFile);
  writePersistedStatus(cachePaths.statusFile, {
    ...current,
    ...patch
  });
}
async function ensureResultsRepoClone(config) {
  const normalized = normalizeResultsConfig(config);
  if (normalized.repo_path) {
    if (!await isGitRepository(normalized.repo_path)) {
      throw new Error(`Results repo_path is not a git repository: ${normalized.repo_path}`);
    }
    const topLevel = await resolveGitTopLevel(normalized.repo_path);
    await ensureResultsMergeConfig(topLevel);
    return topLevel;
  }
  const cachePaths = getResultsRepoLocalPaths(normalized.repo);
  const cloneDir = normalized.path;
  mkdirSync(cachePaths.rootDir, { recursive: true });
  mkdirSync(path3.dirname(cloneDir), { recursive: true });
  const cloneMissing = !existsSync(cloneDir);
  const gitDir = path3.join(cloneDir, ".git");
  const cloneEmpty = !cloneMissing && !existsSync(gitDir) && (await readdir(cloneDir)).length === 0;
  if (cloneMissing || cloneEmpty) {
    try {
      await runGit([
        "clone",
        "--filter=blob:none",
        ...normalized.remote === "origin" ? [] : ["--origin", normalized.remote],
        resolveResultsRepoUrl(normalized.repo_url ?? normalized.repo),
        cloneDir
      ]);
      await ensureResultsMergeConfig(cloneDir);
      return cloneDir;
    } catch (error) {
      updateStatusFile(normalized, { last_error: withFriendlyGitHubAuthError(error).message });
      throw withFriendlyGitHubAuthError(error);
    }
  }
  if (!existsSync(gitDir)) {
    throw new Error(`Results repo clone path is not a git repository: ${cloneDir}`);
  }
  await ensureResultsMergeConfig(cloneDir);
  return cloneDir;
}
function getResultsRepoStatus(config) {
  if (!config) {
    return {
      configured: false,
      available: false,
      repo: "",
      local_dir: "",
      sync_status: "unavailable"
    };
  }
  const normalized = normalizeResultsConfig(config);
  const localPaths = getResultsRepoLocalPaths(normalized.repo);
  const persisted = readPersistedStatus(localPaths.statusFile);
  return {
    configured: true,
    available: existsSync(normalized.path),
    repo: normalized.repo,
    ...normalized.repo_path !== void 0 && { repo_path: normalized.repo_path },
    path: normalized.path,
    auto_push: normalized.auto_push,
    require_push: normalized.require_push,
    push_conflict_policy: normalized.push_conflict_policy,
    local_dir: normalized.path,
    last_synced_at: persisted.last_synced_at,
    last_error: persisted.last_error,
    sync_status: existsSync(normalized.path) ? "clean" : "unavailable"
  };
}
function parseGitPorcelainPaths(status) {
  const dirtyPaths = /* @__PURE__ */ new Set();
  const conflictedPaths = /* @__PURE__ */ new Set();
  const conflictCodes = /* @__PURE__ */ new Set(["DD", "AU", "UD", "UA", "DU", "AA", "UU"]);
  for (const line of status.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const code = line.slice(0, 2);
    const rawPath = line.slice(3).trim();
    const paths = rawPath.includes(" -> ") ? rawPath.split(" -> ") : [rawPath];
    for (const p of paths.map((entry) => entry.trim()).filter(Boolean)) {
      dirtyPaths.add(p);
      if (conflictCodes.has(code)) {
        conflictedPaths.add(p);
      }
    }
  }
  return {
    dirtyPaths: [...dirtyPaths].sort(),
    conflictedPaths: [...conflictedPaths].sort()
  };
}
async function getCurrentBranch(repoDir) {
  const { stdout } = await runGit(["branch", "--show-current"], { cwd: repoDir, check: false });
  const branch = stdout.trim();
  if (branch) {
    return branch;
  }
  const { stdout: sha } = await runGit(["rev-parse", "--short", "HEAD"], {
    cwd: repoDir,
    check: false
  });
  return sha.trim() ? `HEAD@${sha.trim()}` : void 0;
}
async function resolveComparisonRef(repoDir, config) {
  if (config?.branch) {
    return assertConfiguredResultsBranchExists(repoDir, config);
  }
  const { stdout: upstream } = await runGit(
    ["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"],
    { cwd: repoDir, check: false }
  );
  const upstreamRef = upstream.trim();
  if (upstreamRef && !upstreamRef.includes("fatal:")) {
    return upstreamRef;
  }
  const baseBranch = await resolveDefaultBranch(repoDir);
  const fallback = `${config?.remote ?? "origin"}/${baseBranch}`;
  const { stdout: fallbackSha } = await runGit(["rev-parse", "--verify", fallback], {
    cwd: repoDir,
    check: false
  });
  return fallbackSha.trim() ? fallback : void 0;
}
async function getAheadBehind(repoDir, upstream) {
  if (!upstream) {
    return {};
  }
  const { stdout } = await runGit(["rev-list", "--left-right", "--count", `HEAD...${upstream}`], {
    cwd: repoDir,
    check: false
  });
  const [aheadText, behindText] = stdout.trim().split(/\s+/);
  const ahead = Number.parseInt(aheadText ?? "", 10);
  const behind = Number.parseInt(behindText ?? "", 10);
  return {
    ...Number.isFinite(ahead) && { ahead },
    ...Number.isFinite(behind) && { behind }
  };
}
async function getAheadBehindForRefs(repoDir, leftRef, rightRef) {
  const { stdout } = await runGit(
    ["rev-list", "--left-right", "--count", `${leftRef}...${rightRef}`],
    {
      cwd: repoDir,
      check: false
    }
  );
  const [aheadText, behindText] = stdout.trim().split(/\s+/);
  const ahead = Number.parseInt(aheadText ?? "", 10);
  const behind = Number.parseInt(behindText ?? "", 10);
  return {
    ...Number.isFinite(ahead) && { ahead },
    ...Number.isFinite(behind) && { behind }
  };
}
async function readGitText(repoDir, ref, gitPath) {
  if (!ref) {
    return void 0;
  }
  const { stdout } = await runGit(["show", `${ref}:${gitPath}`], {
    cwd: repoDir,
    check: false
  });
  return stdout.length > 0 ? stdout : void 0;
}
async function getStorageBranchWorktreeDirtyPaths(repoDir, config) {
  const { stdout: porcelain } = await runGit(
    ["status", "--porcelain=v1", "--untracked-files=all"],
    {
      cwd: repoDir,
      check: false
    }
  );
  const parsed = parseGitPorcelainPaths(porcelain);
  const safeDirtyPaths = parsed.dirtyPaths.filter(isSafeResultsRepoPath);
  const conflictedPaths = parsed.conflictedPaths.filter(isSafeResultsRepoPath);
  if (safeDirtyPaths.length === 0) {
    return { dirtyPaths: [], conflictedPaths };
  }
  const localRef = `refs/heads/${config.branch}`;
  const remoteRef = remoteBranchRef(config.branch, config.remote);
  const comparisonRef = await gitRefExists(repoDir, localRef) ? localRef : await gitRefExists(repoDir, remoteRef) ? remoteRef : void 0;
  const dirtyPaths = [];
  for (const gitPath of safeDirtyPaths) {
    const absolutePath = path3.join(repoDir, ...gitPath.split("/"));
    if (!existsSync(absolutePath)) {
      if (await readGitText(repoDir, comparisonRef, gitPath) !== void 0) {
        dirtyPaths.push(gitPath);
      }
      continue;
    }
    const localContent = readFileSync2(absolutePath, "utf8");
    const branchContent = await readGitText(repoDir, comparisonRef, gitPath);
    if (branchContent === void 0 || localContent !== branchContent) {
      dirtyPaths.push(gitPath);
    }
  }
  return { dirtyPaths: dirtyPaths.sort(), conflictedPaths };
}
async function inspectResultsStorageBranchGit(repoDir, config) {
  if (!config.branch) {
    return {
      syncStatus: "clean",
      dirtyPaths: [],
      conflictedPaths: []
    };
  }
  const localRef = `refs/heads/${config.branch}`;
  const upstream = remoteBranchRef(config.branch, config.remote);
  const localExists = await gitRefExists(repoDir, localRef);
  const remoteExists = await gitRefExists(repoDir, upstream);
  const worktree = await getStorageBranchWorktreeDirtyPaths(repoDir, {
    ...config,
    branch: config.branch
  });
  const { ahead = 0, behind = 0 } = localExists && remoteExists ? await getAheadBehindForRefs(repoDir, localRef, upstream) : {
    ahead: localExists && !remoteExists ? 1 : 0,
    behind: !localExists && remoteExists ? 1 : 0
  };
  let syncStatus = "clean";
  if (worktree.conflictedPaths.length > 0) {
    syncStatus = "conflicted";
  } else if (worktree.dirtyPaths.length > 0) {
    syncStatus = "dirty";
  } else if (ahead > 0 && behind > 0) {
    syncStatus = "diverged";
  } else if (behind > 0) {
    syncStatus = "behind";
  } else if (ahead > 0) {
    syncStatus = "ahead";
  }
  return {
    syncStatus,
    branch: config.branch,
    ...remoteExists && { upstream },
    ahead,
    behind,
    dirtyPaths: worktree.dirtyPaths,
    conflictedPaths: worktree.conflictedPaths
  };
}
async function fastForwardStorageBranchRef(repoDir, normalized, upstream) {
  await assertValidResultsBranchName(repoDir, normalized.branch);
  await ensureResultsBranchNotCheckedOut(repoDir, normalized);
  const localRef = `refs/heads/${normalized.branch}`;
  const localExists = await gitRefExists(repoDir, localRef);
  const updateArgs = ["update-ref", localRef, upstream];
  if (localExists) {
    const { stdout: localSha } = await runGit(["rev-parse", localRef], { cwd: repoDir });
    updateArgs.push(localSha.trim());
  }
  await runGit(updateArgs, { cwd: repoDir });
  await runGit(["branch", "--set-upstream-to", upstream, normalized.branch], {
    cwd: repoDir,
    check: false
  });
}
async function getDirtyPathsChangedUpstream(repoDir, normalized, dirtyPaths, upstream) {
  const safeDirtyPaths = [...new Set(dirtyPaths.filter(isSafeResultsRepoPath))].sort();
  if (safeDirtyPaths.length === 0) {
    return [];
  }
  const localRef = `refs/heads/${normalized.branch}`;
  const localExists = await gitRefExists(repoDir, localRef);
  let changedPaths;
  if (localExists) {
    const { stdout } = await runGit(["diff", "--name-only", `${localRef}..${upstream}`], {
      cwd: repoDir,
      check: false
    });
    changedPaths = stdout.split(/\r?\n/).map((line) => line.trim()).filter(Boolean).filter(isSafeResultsRepoPath).sort();
  } else {
    changedPaths = [];
    for (const dirtyPath of safeDirtyPaths) {
      if (await readGitText(repoDir, upstream, dirtyPath) !== void 0) {
        changedPaths.push(dirtyPath);
      }
    }
  }
  const dirtySet = new Set(safeDirtyPaths);
  return [...new Set(changedPaths.filter((changedPath) => dirtySet.has(changedPath)))].sort();
}
async function hasInProgressGitConflict(repoDir) {
  const markers = ["MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "REBASE_HEAD"];
  for (const marker of markers) {
    const { stdout } = await runGit(["rev-parse", "--git-path", marker], {
      cwd: repoDir,
      check: false
    });
    const markerPath = stdout.trim();
    const resolvedMarkerPath = path3.isAbsolute(markerPath) ? markerPath : path3.join(repoDir, markerPath);
    if (markerPath && existsSync(resolvedMarkerPath)) {
      return true;
    }
  }
  return false;
}
async function buildGitDiffSummary(repoDir, upstream) {
  const summaries = [];
  for (const args of [
    ["diff", "--stat"],
    ["diff", "--cached", "--stat"],
    ...upstream ? [["diff", "--stat", `${upstream}..HEAD`]] : []
  ]) {
    const { stdout } = await runGit(args, { cwd: repoDir, check: false });
    const summary = stdout.trim();
    if (summary) {
      summaries.push(summary);
    }
  }
  return summaries.length > 0 ? summaries.join("\n") : void 0;
}
async function inspectResultsRepoGit(repoDir, config) {
  const branch = await getCurrentBranch(repoDir);
  const upstream = await resolveComparisonRef(repoDir, config);
  const { stdout: porcelain } = await runGit(
    ["status", "--porcelain=v1", "--untracked-files=all"],
    {
      cwd: repoDir,
      check: false
    }
  );
  const { stdout: shortStatus } = await runGit(["status", "--short", "--branch"], {
    cwd: repoDir,
    check: false
  });
  const { dirtyPaths: allDirtyPaths, conflictedPaths } = parseGitPorcelainPaths(porcelain);
  const dirtyPaths = allDirtyPaths.filter(isSafeResultsRepoPath);
  const { ahead = 0, behind = 0 } = await getAheadBehind(repoDir, upstream);
  const inProgressConflict = await hasInProgressGitConflict(repoDir);
  let syncStatus = "clean";
  if (conflictedPaths.length > 0 || inProgressConflict) {
    syncStatus = "conflicted";
  } else if (dirtyPaths.length > 0) {
    syncStatus = "dirty";
  } else if (ahead > 0 && behind > 0) {
    syncStatus = "diverged";
  } else if (behind > 0) {
    syncStatus = "behind";
  } else if (ahead > 0) {
    syncStatus = "ahead";
  }
  return {
    syncStatus,
    branch,
    upstream,
    ahead,
    behind,
    dirtyPaths,
    conflictedPaths,
    gitStatus: shortStatus.trim() || void 0,
    gitDiffSummary: await buildGitDiffSummary(repoDir, upstream)
  };
}
function withGitInspection(status, inspection) {
  return {
    ...status,
    sync_status: inspection.syncStatus,
    branch: inspection.branch,
    upstream: inspection.upstream,
    ahead: inspection.ahead,
    behind: inspection.behind,
    dirty_paths: inspection.dirtyPaths,
    conflicted_paths: inspection.conflictedPaths,
    git_status: inspection.gitStatus,
    git_diff_summary: inspection.gitDiffSummary,
    last_error: lastErrorForGitInspection(status, inspection)
  };
}
function lastErrorForGitInspection(status, inspection) {
  if (inspection.syncStatus === "conflicted") {
    return "Results repo has unresolved git conflicts";
  }
  if (inspection.syncStatus === "diverged") {
    return "Results repo local and remote histories have diverged";
  }
  if (inspection.syncStatus === "dirty") {
    if (status.auto_push === false) {
      return "Results repo has uncommitted changes and auto_push is disabled";
    }
  }
  return void 0;
}
var ResultsBranchPushConflictError = class extends Error {
  constructor(result) {
    super(result.block_reason ?? "Results branch push conflict");
    this.result = result;
    this.name = "ResultsBranchPushConflictError";
  }
};
function pendingMergeToWire(details) {
  return {
    temp_branch: details.tempBranch,
    target_branch: details.targetBranch,
    ...details.compareUrl !== void 0 && { compare_url: details.compareUrl },
    ...details.contributedRunCount !== void 0 && {
      contributed_run_count: details.contributedRunCount
    },
    created_at: details.createdAt
  };
}
function pushDetailsToWire(details) {
  if (!details) {
    return {};
  }
  return {
    push_conflict_policy: details.pushConflictPolicy,
    target_branch: details.targetBranch,
    ...details.remoteCommit !== void 0 && { remote_commit: details.remoteCommit },
    ...details.localCommit !== void 0 && { local_commit: details.localCommit },
    ...details.backupRef !== void 0 && { backup_ref: details.backupRef },
    ...details.backupCommit !== void 0 && { backup_commit: details.backupCommit },
    ...details.previousRemoteCommit !== void 0 && {
      previous_remote_commit: details.previousRemoteCommit
    },
    ...details.forcePushedCommit !== void 0 && {
      force_pushed_commit: details.forcePushedCommit
    },
    ...details.leaseCommit !== void 0 && { lease_commit: details.leaseCommit },
    ...details.autoMergedRemote === true && { auto_merged_remote: true },
    ...details.pendingMerge !== void 0 && {
      pending_merge: pendingMergeToWire(details.pendingMerge)
    }
  };
}
function withBlockedStatus(status, blockReason, flags) {
  return {
    ...status,
    ...pushDetailsToWire(flags?.pushDetails),
    blocked: true,
    block_reason: blockReason,
    ...flags?.pullPerformed !== void 0 && { pull_performed: flags.pullPerformed },
    ...flags?.pushPerformed !== void 0 && { push_performed: flags.pushPerformed },
    ...flags?.commitCreated !== void 0 && { commit_created: flags.commitCreated }
  };
}
function withPushConflictStatus(status, blockReason, details, flags) {
  return withBlockedStatus(
    {
      ...status,
      sync_status: flags.syncStatus ?? "push_conflict"
    },
    blockReason,
    {
      pullPerformed: flags.pullPerformed,
      pushPerformed: flags.pushPerformed,
      commitCreated: flags.commitCreated,
      pushDetails: details
    }
  );
}
function withActionFlags(status, flags) {
  return {
    ...status,
    ...pushDetailsToWire(flags.pushDetails),
    blocked: false,
    pull_performed: flags.pullPerformed,
    push_performed: flags.pushPerformed,
    commit_created: flags.commitCreated
  };
}
function isSafeResultsRepoPath(p) {
  const normalized = p.split(path3.sep).join("/");
  const segments = normalized.split("/").filter(Boolean);
  const isRunBundlePath = segments.length >= 2 && !segments[0]?.startsWith(".") && segments[0] !== RESULTS_REPO_GITATTRIBUTES_FILE;
  return normalized === RESULTS_REPO_GITATTRIBUTES_FILE || RESULTS_REPO_TRACKED_DOT_DIRS.some(
    (dir) => normalized === dir || normalized.startsWith(`${dir}/`)
  ) || isRunBundlePath;
}
async function existingTrackedResultsPathspecs(repoDir) {
  const targets = /* @__PURE__ */ new Set();
  if (existsSync(path3.join(repoDir, RESULTS_REPO_GITATTRIBUTES_FILE))) {
    targets.add(RESULTS_REPO_GITATTRIBUTES_FILE);
  }
  for (const dir of RESULTS_REPO_TRACKED_DOT_DIRS) {
    if (existsSync(path3.join(repoDir, dir))) {
      targets.add(dir);
      continue;
    }
    const { stdout: stdout2 } = await runGit(["ls-files", "--", dir], { cwd: repoDir, check: false });
    if (stdout2.trim().length > 0) {
      targets.add(dir);
    }
  }
  for (const entry of await readdir(repoDir, { withFileTypes: true }).catch(() => [])) {
    if (entry.name.startsWith(".") || !entry.isDirectory()) {
      continue;
    }
    if (existsSync(path3.join(repoDir, entry.name, "summary.json"))) {
      targets.add(entry.name);
    }
  }
  const { stdout } = await runGit(["ls-files"], { cwd: repoDir, check: false });
  for (const file of stdout.split(/\r?\n/)) {
    const normalized = file.trim();
    if (!normalized) {
      continue;
    }
    const segments = normalized.split("/");
    if (segments.length >= 2 && segments[0] && !segments[0].startsWith(".")) {
      targets.add(segments[0]);
    }
  }
  return [...targets].sort();
}
function areSafeResultsRepoPaths(paths) {
  return paths.length > 0 && paths.every(isSafeResultsRepoPath);
}
async function getAheadPaths(repoDir, upstream, branch = "HEAD") {
  if (!upstream) {
    return [];
  }
  const { stdout } = await runGit(["diff", "--name-only", `${upstream}..${branch}`], {
    cwd: repoDir,
    check: false
  });
  return stdout.split(/\r?\n/).map((line) => line.trim()).filter(Boolean).sort();
}
function getPushTargetBranch(upstream, baseBranch, remote = "origin") {
  const prefix = `${remote}/`;
  return upstream?.startsWith(prefix) ? upstream.slice(prefix.length) : baseBranch;
}
function formatShortSha(sha) {
  return sha ? sha.slice(0, 12) : "unknown";
}
async function getCommitSha(repoDir, ref) {
  if (!ref) {
    return void 0;
  }
  const { stdout } = await runGit(["rev-parse", "--verify", `${ref}^{commit}`], {
    cwd: repoDir,
    check: false
  });
  const sha = stdout.trim();
  return sha.length > 0 ? sha : void 0;
}
function isNonFastForwardPushError(error) {
  const text = gitErrorText(error);
  return text.includes("non-fast-forward") || text.includes("fetch first") || text.includes("tip is behind its remote") || text.includes("note about fast-forwards") || text.includes("stale info");
}
var RESULTS_PUSH_MERGE_MAX_ATTEMPTS = 5;
async function isAncestorCommit(repoDir, ancestor, descendant) {
  const { exitCode } = await runGit(["merge-base", "--is-ancestor", ancestor, descendant], {
    cwd: repoDir,
    check: false
  });
  return exitCode === 0;
}
async function getMergeBaseCommit(repoDir, a, b) {
  const { stdout, exitCode } = await runGit(["merge-base", a, b], { cwd: repoDir, check: false });
  const sha = stdout.trim();
  return exitCode === 0 && sha.length > 0 ? sha : void 0;
}
function buildNeedsHumanMergeReason(targetBranch, remoteCommit, localCommit) {
  return `Results branch ${targetBranch} diverged from the remote and could not be auto-merged: a genuine results content conflict remains (remote ${formatShortSha(
    remoteCommit
  )}, local ${formatShortSha(
    localCommit
  )}). The remote branch is unchanged and no history was rewritten; resolve it with a GitHub pull request.`;
}
function timestampForResultsRef(date = /* @__PURE__ */ new Date()) {
  const pad = (value) => String(value).padStart(2, "0");
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}T${pad(
    date.getUTCHours()
  )}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`;
}
function slugifyResultsTargetBranch(branch) {
  return branch.trim().replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "results";
}
function randomResultsRefToken() {
  return randomBytes(4).toString("hex").slice(0, 6);
}
function buildResultsSyncBranchName(targetBranch, token = randomResultsRefToken()) {
  return `agentv/results-sync/${timestampForResultsRef()}-${slugifyResultsTargetBranch(
    targetBranch
  )}-${token}`;
}
function buildResultsCompareUrl(remoteUrl, targetBranch, syncBranch) {
  if (!remoteUrl) {
    return void 0;
  }
  const match = remoteUrl.trim().match(/github\.com[:/]([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/i);
  if (!match) {
    return void 0;
  }
  const [, owner, repo] = match;
  return `https://github.com/${owner}/${repo}/compare/${encodeURIComponent(
    targetBranch
  )}...${encodeURIComponent(syncBranch)}?expand=1`;
}
async function resolveRemotePushUrl(repoDir, remote) {
  for (const args of [
    ["remote", "get-url", "--push", remote],
    ["remote", "get-url", remote]
  ]) {
    const { stdout, exitCode } = await runGit(args, { cwd: repoDir, check: false });
    const url = stdout.trim();
    if (exitCode === 0 && url.length > 0) {
      return url;
    }
  }
  return void 0;
}
async function countContributedRunDirs(repoDir, remoteTargetCommit, sourceCommit) {
  if (!remoteTargetCommit) {
    return void 0;
  }
  const { stdout, exitCode } = await runGit(
    ["diff", "--name-only", `${remoteTargetCommit}...${sourceCommit}`, "--", RESULTS_REPO_RUNS_DIR],
    { cwd: repoDir, check: false }
  );
  if (exitCode !== 0) {
    return void 0;
  }
  const runDirs = /* @__PURE__ */ new Set();
  for (const line of stdout.split(/\r?\n/)) {
    const file = line.trim();
    if (!file) {
      continue;
    }
    const segments = file.split("/");
    if (segments.length >= 2 && segments[0] && !segments[0].startsWith(".")) {
      runDirs.add(segments[0]);
    }
  }
  return runDirs.size;
}
async function pushResultsSyncBranch(params) {
  const { repoDir, remote, sourceCommit, targetBranch } = params;
  const remoteTargetCommit = await getCommitSha(repoDir, remoteBranchRef(targetBranch, remote));
  let syncBranch = buildResultsSyncBranchName(targetBranch);
  await assertValidResultsBranchName(repoDir, syncBranch);
  try {
    await runGit(["push", "--porcelain", remote, `${sourceCommit}:refs/heads/${syncBranch}`], {
      cwd: repoDir
    });
  } catch (error) {
    if (!isRefAlreadyExistsPushError(error)) {
      throw error;
    }
    syncBranch = buildResultsSyncBranchName(targetBranch);
    await assertValidResultsBranchName(repoDir, syncBranch);
    await runGit(["push", "--porcelain", remote, `${sourceCommit}:refs/heads/${syncBranch}`], {
      cwd: repoDir
    });
  }
  const compareUrl = buildResultsCompareUrl(
    await resolveRemotePushUrl(repoDir, remote),
    targetBranch,
    syncBranch
  );
  const contributedRunCount = await countContributedRunDirs(
    repoDir,
    remoteTargetCommit,
    sourceCommit
  ).catch(() => void 0);
  return {
    tempBranch: syncBranch,
    targetBranch,
    ...compareUrl !== void 0 && { compareUrl },
    ...contributedRunCount !== void 0 && { contributedRunCount },
    createdAt: (/* @__PURE__ */ new Date()).toISOString()
  };
}
function isRefAlreadyExistsPushError(error) {
  const text = gitErrorText(error);
  return text.includes("already exists") || text.includes("cannot lock ref") || text.includes("reference already exists");
}
async function mergeRemoteIntoCheckedOutBranch(repoDir, remoteCommit) {
  const args = ["merge", "--no-edit", "-m", "chore(results): merge remote results", remoteCommit];
  let result = await runGit(args, {
    cwd: repoDir,
    check: false,
    env: configuredGitCommitIdentityEnv()
  });
  if (result.exitCode !== 0 && isMissingGitIdentityError({ stderr: result.stderr })) {
    await runGit(["merge", "--abort"], { cwd: repoDir, check: false });
    result = await runGit(args, {
      cwd: repoDir,
      check: false,
      env: { ...configuredGitCommitIdentityEnv(), ...fallbackResultsRepoCommitEnv() }
    });
  }
  return result.exitCode;
}
async function resolveResultBranchPushConflict(params) {
  await ensureResultsMergeConfig(params.repoDir);
  const { repoDir, targetBranch } = params;
  const remote = params.normalized.remote;
  const localRef = params.sourceRef;
  const remoteRef = remoteBranchRef(targetBranch, remote);
  const branchCheckedOut = params.sourceRef === "HEAD";
  let lastDetails = {
    pushConflictPolicy: params.normalized.push_conflict_policy,
    targetBranch
  };
  const buildHumanMergeOutcome = async (reason, details) => {
    if (!details.localCommit) {
      return { blocked: true, blockReason: reason, details, syncStatus: "needs_human_merge" };
    }
    try {
      const pendingMerge = await pushResultsSyncBranch({
        repoDir,
        remote,
        sourceCommit: details.localCommit,
        targetBranch: details.targetBranch
      });
      return {
        blocked: true,
        blockReason: reason,
        details: { ...details, pendingMerge },
        syncStatus: "needs_human_merge"
      };
    } catch (error) {
      return {
        blocked: true,
        blockReason: `${reason} (could not create the temp branch for the GitHub merge: ${getStatusMessage(
          error
        )})`,
        details,
        syncStatus: "needs_human_merge"
      };
    }
  };
  for (let attempt = 1; attempt <= RESULTS_PUSH_MERGE_MAX_ATTEMPTS; attempt += 1) {
    await fetchResultsRepo(repoDir, remote, targetBranch);
    const remoteCommit = await getCommitSha(repoDir, remoteRef);
    const localCommit = await getCommitSha(repoDir, localRef);
    const details = {
      pushConflictPolicy: params.normalized.push_conflict_policy,
      targetBranch,
      ...remoteCommit !== void 0 && { remoteCommit, previousRemoteCommit: remoteCommit },
      ...localCommit !== void 0 && { localCommit }
    };
    lastDetails = details;
    if (!remoteCommit) {
      return {
        blocked: true,
        blockReason: `Results branch push conflict on ${targetBranch}: remote commit could not be resolved after fetch`,
        details,
        syncStatus: "push_conflict"
      };
    }
    if (!localCommit) {
      return {
        blocked: true,
        blockReason: `Results branch push conflict on ${targetBranch}: local commit could not be resolved`,
        details,
        syncStatus: "push_conflict"
      };
    }
    if (await isAncestorCommit(repoDir, localCommit, remoteCommit)) {
      if (branchCheckedOut) {
        await runGit(["merge", "--ff-only", remoteCommit], { cwd: repoDir, check: false });
      } else {
        await runGit(["update-ref", localRef, remoteCommit, localCommit], {
          cwd: repoDir,
          check: false
        });
      }
      return { blocked: false, details };
    }
    let pushSpec = branchCheckedOut ? "HEAD" : localCommit;
    let autoMergedRemote = false;
    if (!await isAncestorCommit(repoDir, remoteCommit, localCommit)) {
      if (branchCheckedOut) {
        const exitCode = await mergeRemoteIntoCheckedOutBranch(repoDir, remoteCommit);
        if (exitCode !== 0) {
          await runGit(["merge", "--abort"], { cwd: repoDir, check: false });
          return await buildHumanMergeOutcome(
            buildNeedsHumanMergeReason(targetBranch, remoteCommit, localCommit),
            details
          );
        }
        pushSpec = "HEAD";
        autoMergedRemote = true;
      } else {
        const base = await getMergeBaseCommit(repoDir, localCommit, remoteCommit);
        if (!base) {
          return await buildHumanMergeOutcome(
            buildNeedsHumanMergeReason(targetBranch, remoteCommit, localCommit),
            details
          );
        }
        const merge = await runGit(
          ["merge-tree", "--write-tree", `--merge-base=${base}`, localCommit, remoteCommit],
          { cwd: repoDir, check: false }
        );
        const mergedTree = merge.stdout.trim().split(/\r?\n/)[0]?.trim();
        if (merge.exitCode !== 0 || !mergedTree) {
          return await buildHumanMergeOutcome(
            buildNeedsHumanMergeReason(targetBranch, remoteCommit, localCommit),
            details
          );
        }
        const { stdout: mergeCommitOut } = await runGitWithFallbackCommitIdentity(
          [
            "commit-tree",
            mergedTree,
            "-p",
            localCommit,
            "-p",
            remoteCommit,
            "-m",
            "chore(results): merge remote results"
          ],
          { cwd: repoDir }
        );
        pushSpec = mergeCommitOut.trim();
        await runGit(["update-ref", localRef, pushSpec, localCommit], { cwd: repoDir });
        autoMergedRemote = true;
      }
    }
    try {
      await runGit(["push", "--porcelain", remote, `${pushSpec}:refs/heads/${targetBranch}`], {
        cwd: repoDir
      });
    } catch (error) {
      if (isNonFastForwardPushError(error)) {
        continue;
      }
      throw error;
    }
    const pushedCommit = await getCommitSha(repoDir, pushSpec) ?? localCommit;
    return {
      blocked: false,
      details: {
        ...details,
        localCommit: pushedCommit,
        ...autoMergedRemote && { autoMergedRemote }
      }
    };
  }
  return await buildHumanMergeOutcome(
    `Results branch ${targetBranch} could not be reconciled after ${RESULTS_PUSH_MERGE_MAX_ATTEMPTS} attempts because the remote kept advancing; retry sync. The remote branch is unchanged.`,
    lastDetails
  );
}
async function statusFromInspection(normalized, repoDir) {
  return withGitInspection(
    getResultsRepoStatus(normalized),
    await inspectResultsRepoGit(repoDir, normalized)
  );
}
async function getResultsRepoSyncStatus(config) {
  const baseStatus = getResultsRepoStatus(config);
  if (!config) {
    return baseStatus;
  }
  const normalized = normalizeResultsConfig(config);
  if (activeResultsRepoSyncs.has(normalized.path)) {
    return {
      ...baseStatus,
      sync_status: "syncing"
    };
  }
  if (!existsSync(normalized.path) || !await isGitRepository(normalized.path)) {
    return {
      ...baseStatus,
      sync_status: "unavailable"
    };
  }
  try {
    if (usesStorageBranchWorktree(normalized)) {
      return withGitInspection(
        baseStatus,
        await inspectResultsStorageBranchGit(normalized.path, normalized)
      );
    }
    if (normalized.branch) {
      await fetchResultsRepo(normalized.path, normalized.remote, normalized.branch).catch(
        () => void 0
      );
      await checkoutConfiguredResultsBranch(normalized.path, normalized);
    }
    return withGitInspection(baseStatus, await inspectResultsRepoGit(normalized.path, normalized));
  } catch (error) {
    return {
      ...baseStatus,
      ...normalized.branch ? { available: false } : {},
      sync_status: "unavailable",
      last_error: getStatusMessage(error)
    };
  }
}
async function syncResultsRepo(config) {
  const normalized = normalizeResultsConfig(config);
  try {
    const repoDir = await ensureResultsRepoClone(normalized);
    await fetchResultsRepo(repoDir, normalized.remote, normalized.branch);
    if (!usesStorageBranchWorktree(normalized)) {
      await checkoutConfiguredResultsBranch(repoDir, normalized);
    }
    updateStatusFile(normalized, {
      last_synced_at: (/* @__PURE__ */ new Date()).toISOString(),
      last_error: void 0
    });
  } catch (error) {
    updateStatusFile(normalized, {
      last_error: withFriendlyGitHubAuthError(error).message
    });
    throw withFriendlyGitHubAuthError(error);
  }
  return getResultsRepoStatus(normalized);
}
function getStatusMessage(error) {
  return error instanceof Error ? error.message : String(error);
}
async function syncResultsRepoForProject(config) {
  const normalized = normalizeResultsConfig(config);
  const syncKey = normalized.path;
  if (activeResultsRepoSyncs.has(syncKey)) {
    return {
      ...await getResultsRepoSyncStatus(normalized),
      sync_status: "syncing",
      blocked: true,
      block_reason: "Results repo sync is already in progress"
    };
  }
  activeResultsRepoSyncs.add(syncKey);
  let pullPerformed = false;
  let pushPerformed = false;
  let commitCreated = false;
  let pushDetails;
  try {
    const repoDir = await ensureResultsRepoClone(normalized);
    if (usesStorageBranchWorktree(normalized)) {
      try {
        await fetchResultsRepo(repoDir, normalized.remote, normalized.branch);
      } catch (error) {
        if (normalized.require_push) {
          throw error;
        }
      }
      let inspection2 = await inspectResultsStorageBranchGit(repoDir, normalized);
      const fastForwardBehindStorageBranch = async () => {
        if ((inspection2.behind ?? 0) <= 0 || (inspection2.ahead ?? 0) > 0) {
          return void 0;
        }
        if (!inspection2.upstream) {
          const status2 = withGitInspection(getResultsRepoStatus(normalized), inspection2);
          updateStatusFile(normalized, {
            last_error: "Results repo has no upstream branch to pull from"
          });
          return withBlockedStatus(status2, "Results repo has no upstream branch to pull from", {
            pullPerformed,
            pushPerformed,
            commitCreated
          });
        }
        if (!normalized.branch) {
          return void 0;
        }
        try {
          await fastForwardStorageBranchRef(
            repoDir,
            { ...normalized, branch: normalized.branch },
            inspection2.upstream
          );
          pullPerformed = true;
          inspection2 = await inspectResultsStorageBranchGit(repoDir, normalized);
          return void 0;
        } catch (error) {
          inspection2 = await inspectResultsStorageBranchGit(repoDir, normalized);
          const status2 = withGitInspection(getResultsRepoStatus(normalized), inspection2);
          const reason = `Results repo could not be fast-forwarded: ${getStatusMessage(error)}`;
          updateStatusFile(normalized, { last_error: reason });
          return withBlockedStatus(status2, reason, {
            pullPerformed,
            pushPerformed,
            commitCreated
          });
        }
      };
      if (inspection2.syncStatus === "conflicted") {
        const status2 = withGitInspection(getResultsRepoStatus(normalized), inspection2);
        updateStatusFile(normalized, {
          last_error: "Results repo has unresolved git conflicts"
        });
        return withBlockedStatus(status2, "Results repo has unresolved git conflicts", {
          pullPerformed,
          pushPerformed,
          commitCreated
        });
      }
      if ((inspection2.ahead ?? 0) > 0 && (inspection2.behind ?? 0) > 0) {
        const status2 = withGitInspection(getResultsRepoStatus(normalized), inspection2);
        if (!normalized.branch) {
          updateStatusFile(normalized, {
            last_error: "Results repo local and remote histories have diverged"
          });
          return withBlockedStatus(
            status2,
            "Results repo local and remote histories have diverged",
            {
              pullPerformed,
              pushPerformed,
              commitCreated
            }
          );
        }
        const localRef = `refs/heads/${normalized.branch}`;
        const aheadPaths = await getAheadPaths(repoDir, inspection2.upstream, localRef);
        if (!inspection2.upstream || !areSafeResultsRepoPaths(aheadPaths)) {
          const reason = !inspection2.upstream ? "Results repo has no upstream branch to push to" : "Results repo has non-results committed changes";
          updateStatusFile(normalized, { last_error: reason });
          return withBlockedStatus(status2, reason, {
            pullPerformed,
            pushPerformed,
            commitCreated
          });
        }
        const outcome = await resolveResultBranchPushConflict({
          normalized: { ...normalized, branch: normalized.branch },
          repoDir,
          targetBranch: normalized.branch,
          sourceRef: localRef
        });
        pushDetails = outcome.details;
        if (outcome.blocked) {
          updateStatusFile(normalized, { last_error: outcome.blockReason });
          return withPushConflictStatus(status2, outcome.blockReason, outcome.details, {
            pullPerformed,
            pushPerformed,
            commitCreated,
            syncStatus: outcome.syncStatus
          });
        }
        pushPerformed = true;
        await fetchResultsRepo(repoDir, normalized.remote, normalized.branch).catch(
          () => void 0
        );
        inspection2 = await inspectResultsStorageBranchGit(repoDir, normalized);
      }
      if (inspection2.syncStatus === "dirty") {
        if (!normalized.auto_push && !normalized.require_push) {
          const status2 = withGitInspection(getResultsRepoStatus(normalized), inspection2);
          updateStatusFile(normalized, {
            last_error: "Results repo has uncommitted changes and auto_push is disabled"
          });
          return withBlockedStatus(
            status2,
            "Results repo has uncommitted changes and auto_push is disabled",
            {
              pullPerformed,
              pushPerformed,
              commitCreated
            }
          );
        }
        if ((inspection2.behind ?? 0) > 0) {
          if (inspection2.upstream && normalized.branch) {
            const changedDirtyPaths = await getDirtyPathsChangedUpstream(
              repoDir,
              { ...normalized, branch: normalized.branch },
              inspection2.dirtyPaths,
              inspection2.upstream
            );
            if (changedDirtyPaths.length > 0) {
              const conflictInspection = {
                ...inspection2,
                syncStatus: "conflicted",
                conflictedPaths: [
                  .../* @__PURE__ */ new Set([...inspection2.conflictedPaths, ...changedDirtyPaths])
                ].sort()
              };
              const status2 = withGitInspection(
                getResultsRepoStatus(normalized),
                conflictInspection
              );
              const reason = `Results repo local metadata changes conflict with upstream changes: ${changedDirtyPaths.join(", ")}`;
              updateStatusFile(normalized, { last_error: reason });
              return withBlockedStatus(status2, reason, {
                pullPerformed,
                pushPerformed,
                commitCreated
              });
            }
          }
          const blockedStatus = await fastForwardBehindStorageBranch();
          if (blockedStatus) {
            return blockedStatus;
          }
        }
        if (normalized.branch) {
          commitCreated = await commitStorageBranchWorktreePaths({
            normalized: { ...normalized, branch: normalized.branch },
            repoDir,
            paths: inspection2.dirtyPaths,
            commitMessage: "chore(results): sync local result metadata"
          });
          inspection2 = await inspectResultsStorageBranchGit(repoDir, normalized);
        }
      }
      if ((inspection2.behind ?? 0) > 0 && (inspection2.ahead ?? 0) === 0) {
        const blockedStatus = await fastForwardBehindStorageBranch();
        if (blockedStatus) {
          return blockedStatus;
        }
      }
      if (normalized.auto_push || normalized.require_push) {
        if (normalized.branch) {
          const localRef = `refs/heads/${normalized.branch}`;
          if (await gitRefExists(repoDir, localRef)) {
            try {
              await runGit(
                [
                  "push",
                  "--porcelain",
                  normalized.remote,
                  `${localRef}:refs/heads/${normalized.branch}`
                ],
                { cwd: repoDir }
              );
              pushPerformed = true;
              await fetchResultsRepo(repoDir, normalized.remote, normalized.branch).catch(
                () => void 0
              );
            } catch (error) {
              if (isNonFastForwardPushError(error)) {
                const outcome = await resolveResultBranchPushConflict({
                  normalized: { ...normalized, branch: normalized.branch },
                  repoDir,
                  targetBranch: normalized.branch,
                  sourceRef: localRef
                });
                pushDetails = outcome.details;
                if (!outcome.blocked) {
                  pushPerformed = true;
                  await fetchResultsRepo(repoDir, normalized.remote, normalized.branch).catch(
                    () => void 0
                  );
                  inspection2 = await inspectResultsStorageBranchGit(repoDir, normalized);
                } else {
                  updateStatusFile(normalized, { last_error: outcome.blockReason });
                  const status2 = withGitInspection(
                    getResultsRepoStatus(normalized),
                    await inspectResultsStorageBranchGit(repoDir, normalized)
                  );
                  return withPushConflictStatus(status2, outcome.blockReason, outcome.details, {
                    pullPerformed,
                    pushPerformed,
                    commitCreated,
                    syncStatus: outcome.syncStatus
                  });
                }
              } else {
                updateStatusFile(normalized, { last_error: getStatusMessage(error) });
                if (normalized.require_push) {
                  throw error;
                }
                const status2 = withGitInspection(
                  getResultsRepoStatus(normalized),
                  await inspectResultsStorageBranchGit(repoDir, normalized)
                );
                return withBlockedStatus(
                  status2,
                  `Results repo push was rejected: ${getStatusMessage(error)}`,
                  {
                    pullPerformed,
                    pushPerformed,
                    commitCreated
                  }
                );
              }
            }
          }
        }
      }
      updateStatusFile(normalized, {
        last_synced_at: (/* @__PURE__ */ new Date()).toISOString(),
        last_error: void 0
      });
      const status = withGitInspection(
        getResultsRepoStatus(normalized),
        await inspectResultsStorageBranchGit(repoDir, normalized)
      );
      return withActionFlags(status, { pullPerformed, pushPerformed, commitCreated, pushDetails });
    }
    await fetchResultsRepo(repoDir, normalized.remote, normalized.branch);
    await checkoutConfiguredResultsBranch(repoDir, normalized);
    let inspection = await inspectResultsRepoGit(repoDir, normalized);
    if (inspection.syncStatus === "conflicted") {
      const status = withGitInspection(getResultsRepoStatus(normalized), inspection);
      updateStatusFile(normalized, {
        last_error: "Results repo has unresolved git conflicts"
      });
      return withBlockedStatus(status, "Results repo has unresolved git conflicts", {
        pullPerformed,
        pushPerformed,
        commitCreated
      });
    }
    if (inspection.syncStatus === "dirty") {
      if (!normalized.auto_push) {
        const status = withGitInspection(getResultsRepoStatus(normalized), inspection);
        updateStatusFile(normalized, {
          last_error: "Results repo has uncommitted changes and auto_push is disabled"
        });
        return withBlockedStatus(
          status,
          "Results repo has uncommitted changes and auto_push is disabled",
          {
            pullPerformed,
            pushPerformed,
            commitCreated
          }
        );
      }
      if ((inspection.behind ?? 0) > 0) {
        if (!inspection.upstream) {
          const status = withGitInspection(getResultsRepoStatus(normalized), inspection);
          updateStatusFile(normalized, {
            last_error: "Results repo has no upstream branch to pull from"
          });
          return withBlockedStatus(status, "Results repo has no upstream branch to pull from", {
            pullPerformed,
            pushPerformed,
            commitCreated
          });
        }
        try {
          await runGit(["merge", "--ff-only", inspection.upstream], { cwd: repoDir });
          pullPerformed = true;
          inspection = await inspectResultsRepoGit(repoDir, normalized);
        } catch (error) {
          inspection = await inspectResultsRepoGit(repoDir, normalized);
          const status = withGitInspection(getResultsRepoStatus(normalized), inspection);
          const reason = `Results repo could not be fast-forwarded: ${getStatusMessage(error)}`;
          updateStatusFile(normalized, { last_error: reason });
          return withBlockedStatus(status, reason, {
            pullPerformed,
            pushPerformed,
            commitCreated
          });
        }
      }
      if (inspection.syncStatus === "dirty") {
        const trackedPathspecs = await existingTrackedResultsPathspecs(repoDir);
        await runGit(["add", "--all", "--", ...trackedPathspecs], { cwd: repoDir });
        await runGitWithFallbackCommitIdentity(
          [
            "commit",
            "-m",
            "chore(results): sync local results branch changes",
            "--",
            ...trackedPathspecs
          ],
          {
            cwd: repoDir
          }
        );
        commitCreated = true;
        inspection = await inspectResultsRepoGit(repoDir, normalized);
      }
    }
    if (inspection.syncStatus === "diverged") {
      const status = withGitInspection(getResultsRepoStatus(normalized), inspection);
      const aheadPaths = await getAheadPaths(repoDir, inspection.upstream);
      if (!inspection.upstream || !areSafeResultsRepoPaths(aheadPaths)) {
        const reason = !inspection.upstream ? "Results repo has no upstream branch to push to" : "Results repo has non-results committed changes";
        updateStatusFile(normalized, { last_error: reason });
        return withBlockedStatus(status, reason, {
          pullPerformed,
          pushPerformed,
          commitCreated
        });
      }
      const baseBranch = normalized.branch ?? await resolveDefaultBranch(repoDir);
      const targetBranch = getPushTargetBranch(inspection.upstream, baseBranch, normalized.remote);
      const outcome = await resolveResultBranchPushConflict({
        normalized: { ...normalized, branch: targetBranch },
        repoDir,
        targetBranch,
        sourceRef: "HEAD"
      });
      pushDetails = outcome.details;
      if (outcome.blocked) {
        updateStatusFile(normalized, { last_error: outcome.blockReason });
        return withPushConflictStatus(status, outcome.blockReason, outcome.details, {
          pullPerformed,
          pushPerformed,
          commitCreated,
          syncStatus: outcome.syncStatus
        });
      }
      pushPerformed = true;
      await fetchResultsRepo(repoDir, normalized.remote, normalized.branch);
      inspection = await inspectResultsRepoGit(repoDir, normalized);
    }
    if ((inspection.behind ?? 0) > 0 && (inspection.ahead ?? 0) === 0) {
      if (!inspection.upstream) {
        const status = withGitInspection(getResultsRepoStatus(normalized), inspection);
        updateStatusFile(normalized, {
          last_error: "Results repo has no upstream branch to pull from"
        });
        return withBlockedStatus(status, "Results repo has no upstream branch to pull from", {
          pullPerformed,
          pushPerformed,
          commitCreated
        });
      }
      try {
        await runGit(["merge", "--ff-only", inspection.upstream], { cwd: repoDir });
        pullPerformed = true;
        inspection = await inspectResultsRepoGit(repoDir, normalized);
      } catch (error) {
        inspection = await inspectResultsRepoGit(repoDir, normalized);
        const status = withGitInspection(getResultsRepoStatus(normalized), inspection);
        const reason = `Results repo could not be fast-forwarded: ${getStatusMessage(error)}`;
        updateStatusFile(normalized, { last_error: reason });
        return withBlockedStatus(status, reason, {
          pullPerformed,
          pushPerformed,
          commitCreated
        });
      }
    }
    if ((inspection.ahead ?? 0) > 0) {
      if (!normalized.auto_push) {
        const status = withGitInspection(getResultsRepoStatus(normalized), inspection);
        return withActionFlags(status, {
          pullPerformed,
          pushPerformed,
          commitCreated
        });
      }
      const aheadPaths = await getAheadPaths(repoDir, inspection.upstream);
      if (!inspection.upstream || !areSafeResultsRepoPaths(aheadPaths)) {
        const status = withGitInspection(getResultsRepoStatus(normalized), inspection);
        const reason = !inspection.upstream ? "Results repo has no upstream branch to push to" : "Results repo has non-results committed changes";
        updateStatusFile(normalized, { last_error: reason });
        return withBlockedStatus(status, reason, {
          pullPerformed,
          pushPerformed,
          commitCreated
        });
      }
      const baseBranch = normalized.branch ?? await resolveDefaultBranch(repoDir);
      const targetBranch = getPushTargetBranch(inspection.upstream, baseBranch, normalized.remote);
      try {
        await runGit(["push", normalized.remote, `HEAD:${targetBranch}`], { cwd: repoDir });
        pushPerformed = true;
        await fetchResultsRepo(repoDir, normalized.remote, normalized.branch);
        inspection = await inspectResultsRepoGit(repoDir, normalized);
      } catch (error) {
        if (isNonFastForwardPushError(error)) {
          const outcome = await resolveResultBranchPushConflict({
            normalized: { ...normalized, branch: targetBranch },
            repoDir,
            targetBranch,
            sourceRef: "HEAD"
          });
          pushDetails = outcome.details;
          if (!outcome.blocked) {
            pushPerformed = true;
            await fetchResultsRepo(repoDir, normalized.remote, normalized.branch);
            inspection = await inspectResultsRepoGit(repoDir, normalized);
          } else {
            await fetchResultsRepo(repoDir, normalized.remote, normalized.branch).catch(
              () => void 0
            );
            inspection = await inspectResultsRepoGit(repoDir, normalized);
            const status = withGitInspection(getResultsRepoStatus(normalized), inspection);
            updateStatusFile(normalized, { last_error: outcome.blockReason });
            return withPushConflictStatus(status, outcome.blockReason, outcome.details, {
              pullPerformed,
              pushPerformed,
              commitCreated,
              syncStatus: outcome.syncStatus
            });
          }
        } else {
          await fetchResultsRepo(repoDir, normalized.remote, normalized.branch).catch(
            () => void 0
          );
          inspection = await inspectResultsRepoGit(repoDir, normalized);
          const status = withGitInspection(getResultsRepoStatus(normalized), inspection);
          const reason = `Results repo push was rejected: ${getStatusMessage(error)}`;
          updateStatusFile(normalized, { last_error: reason });
          return withBlockedStatus(status, reason, {
            pullPerformed,
            pushPerformed,
            commitCreated
          });
        }
      }
    }
    updateStatusFile(normalized, {
      last_synced_at: (/* @__PURE__ */ new Date()).toISOString(),
      last_error: void 0
    });
    return withActionFlags(await statusFromInspection(normalized, repoDir), {
      pullPerformed,
      pushPerformed,
      commitCreated,
      pushDetails
    });
  } catch (error) {
    updateStatusFile(normalized, {
      last_error: withFriendlyGitHubAuthError(error).message
    });
    throw withFriendlyGitHubAuthError(error);
  } finally {
    activeResultsRepoSyncs.delete(syncKey);
  }
}
async function fastForwardResultsTowardTarget(repoDir, normalized, targetBranch) {
  const upstreamRef = remoteBranchRef(targetBranch, normalized.remote);
  if (!await gitRefExists(repoDir, upstreamRef)) {
    return;
  }
  const upstreamCommit = await getCommitSha(repoDir, upstreamRef);
  if (!upstreamCommit) {
    return;
  }
  if (usesStorageBranchWorktree(normalized) && normalized.branch) {
    const localRef = `refs/heads/${normalized.branch}`;
    if (!await gitRefExists(repoDir, localRef)) {
      await runGit(["update-ref", localRef, upstreamCommit], { cwd: repoDir, check: false });
      await runGit(["branch", "--set-upstream-to", upstreamRef, normalized.branch], {
        cwd: repoDir,
        check: false
      });
      return;
    }
    const localCommit = await getCommitSha(repoDir, localRef);
    if (localCommit && await isAncestorCommit(repoDir, localCommit, upstreamCommit)) {
      await runGit(["update-ref", localRef, upstreamCommit, localCommit], {
        cwd: repoDir,
        check: false
      });
    }
    return;
  }
  await runGit(["merge", "--ff-only", upstreamRef], { cwd: repoDir, check: false });
}
async function confirmResultsMergeAndPull(config) {
  const normalized = normalizeResultsConfig(config);
  const repoDir = await ensureResultsRepoClone(normalized);
  const targetBranch = normalized.branch ?? await resolveDefaultBranch(repoDir);
  await fetchResultsRepo(repoDir, normalized.remote, normalized.branch).catch(() => void 0);
  await fastForwardResultsTowardTarget(repoDir, normalized, targetBranch);
  return syncResultsRepoForProject(config);
}
async function checkoutResultsRepoBranch(config, branchName) {
  const normalized = normalizeResultsConfig(config);
  const repoDir = await ensureResultsRepoClone(normalized);
  const baseBranch = await resolveDefaultBranch(repoDir);
  await fetchResultsRepo(repoDir, normalized.remote);
  await runGit(["checkout", "-B", branchName, `${normalized.remote}/${baseBranch}`], {
    cwd: repoDir
  });
  updateStatusFile(normalized, { last_error: void 0 });
  return {
    branchName,
    baseBranch,
    repoDir
  };
}
async function prepareResultsRepoBranch(config, branchName) {
  const normalized = normalizeResultsConfig(config);
  const cloneDir = await ensureResultsRepoClone(normalized);
  const baseBranch = await resolveDefaultBranch(cloneDir);
  await fetchResultsRepo(cloneDir, normalized.remote);
  const worktreeRoot = await mkdtemp(path3.join(os.tmpdir(), "agentv-results-repo-"));
  const worktreeDir = path3.join(worktreeRoot, "repo");
  await runGit(
    ["worktree", "add", "-B", branchName, worktreeDir, `${normalized.remote}/${baseBranch}`],
    {
      cwd: cloneDir
    }
  );
  return {
    branchName,
    baseBranch,
    repoDir: worktreeDir,
    cleanup: async () => {
      try {
        await runGit(["worktree", "remove", "--force", worktreeDir], { cwd: cloneDir });
      } finally {
        await rm(worktreeRoot, { recursive: true, force: true }).catch(() => void 0);
      }
    }
  };
}
async function stageResultsArtifacts(params) {
  rmSync(params.destinationDir, { recursive: true, force: true });
  mkdirSync(path3.dirname(params.destinationDir), { recursive: true });
  await cp(params.sourceDir, params.destinationDir, { recursive: true });
}
function resolveResultsRepoRunsDir(config) {
  const normalized = normalizeResultsConfig(config);
  return path3.join(normalized.path, RESULTS_REPO_RESULTS_DIR);
}
async function directorySizeBytes(targetPath) {
  const entry = await stat(targetPath);
  if (entry.isFile()) {
    return entry.size;
  }
  let total = 0;
  for (const child of await readdir(targetPath, { withFileTypes: true })) {
    total += await directorySizeBytes(path3.join(targetPath, child.name));
  }
  return total;
}
async function commitAndPushResultsBranch(params) {
  await runGit(["add", "--all"], { cwd: params.repoDir });
  const { stdout: diffStdout } = await runGit(["status", "--porcelain"], {
    cwd: params.repoDir,
    check: false
  });
  if (diffStdout.trim().length === 0) {
    return false;
  }
  await runGitWithFallbackCommitIdentity(["commit", "-m", params.commitMessage], {
    cwd: params.repoDir
  });
  await runGit(["push", "-u", "origin", params.branchName], { cwd: params.repoDir });
  return true;
}
async function pushResultsRepoBranch(config, branchName, cwd) {
  const normalized = normalizeResultsConfig(config);
  await runGit(["push", "-u", normalized.remote, branchName], {
    cwd: cwd ?? normalized.path
  });
  updateStatusFile(normalized, {
    last_synced_at: (/* @__PURE__ */ new Date()).toISOString(),
    last_error: void 0
  });
}
async function createDraftResultsPr(params) {
  const { stdout } = await runGh(
    [
      "pr",
      "create",
      "--draft",
      "--repo",
      params.repo,
      "--base",
      params.baseBranch,
      "--head",
      params.branchName,
      "--title",
      params.title,
      "--body",
      params.body
    ],
    { cwd: params.repoDir }
  );
  return stdout.trim();
}
async function hasUnpushedCommits(repoDir, upstreamRef, branch) {
  const { stdout } = await runGit(["rev-list", "--count", `${upstreamRef}..refs/heads/${branch}`], {
    cwd: repoDir,
    check: false
  });
  return Number.parseInt(stdout.trim(), 10) > 0;
}
async function assertValidResultsBranchName(repoDir, branch) {
  if (branch.length === 0 || branch.includes("..") || branch.startsWith("/") || branch.endsWith("/") || branch.endsWith(".lock") || [...branch].some((char) => {
    const code = char.charCodeAt(0);
    return code <= 31 || code === 127;
  })) {
    throw new Error(`Invalid results branch name: ${branch}`);
  }
  await runGit(["check-ref-format", "--branch", branch], { cwd: repoDir });
}
function normalizeDestinationPath(destinationPath) {
  const normalized = destinationPath.split(path3.sep).join("/");
  const segments = normalized.split("/").filter(Boolean);
  if (segments.length === 0 || normalized.startsWith("/") || segments.some((segment) => segment === "..") || normalized.split("").some((char) => {
    const code = char.charCodeAt(0);
    return code <= 31 || code === 127;
  })) {
    throw new Error(`Invalid results destination path: ${destinationPath}`);
  }
  return segments.join("/");
}
async function listSourceFiles(sourceDir) {
  const entries = [];
  async function visit(dir) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const absolutePath = path3.join(dir, entry.name);
      if (entry.isDirectory()) {
        await visit(absolutePath);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        entries.push(absolutePath);
      }
    }
  }
  await visit(sourceDir);
  entries.sort();
  return entries;
}
function isRecord2(value) {
  return !!value && typeof value === "object" && !Array.isArray(value);
}
function artifactSidecarPointers(record) {
  if (!isRecord2(record) || !isRecord2(record.artifact_pointers)) {
    return [];
  }
  const pointers = [];
  const pointer = record.artifact_pointers.transcript;
  if (isRecord2(pointer)) {
    if (pointer.ref !== AGENTV_RESULTS_ARTIFACTS_REF || typeof pointer.path !== "string") {
      return pointers;
    }
    pointers.push({
      path: pointer.path,
      ...typeof pointer.sha256 === "string" ? { sha256: pointer.sha256 } : {},
      ...typeof pointer.object_version === "string" ? { objectVersion: pointer.object_version } : {}
    });
  }
  return pointers;
}
function artifactSidecarKey(destinationPath, pointerPath) {
  return path3.posix.join(
    RESULTS_REPO_RUNS_DIR,
    normalizeDestinationPath(destinationPath),
    normalizeDestinationPath(pointerPath)
  );
}
function isDeprecatedTraceArtifactPath(relativePath) {
  return relativePath === "trace.json" || relativePath.endsWith("/trace.json");
}
function isResultManifestFilename(filename) {
  return filename === RESULT_INDEX_FILENAME2;
}
function safeLocalSummaryManifestPath(sourceDir, manifestPath) {
  if (typeof manifestPath !== "string" || manifestPath.trim().length === 0) {
    return void 0;
  }
  if (path3.isAbsolute(manifestPath)) {
    return void 0;
  }
  const normalized = path3.normalize(manifestPath);
  if (normalized.startsWith("..") || path3.isAbsolute(normalized)) {
    return void 0;
  }
  return path3.join(sourceDir, normalized);
}
function resolveLocalResultManifestPath(sourceDir) {
  try {
    const summary = JSON.parse(readFileSync2(path3.join(sourceDir, "summary.json"), "utf8"));
    const manifestPath2 = safeLocalSummaryManifestPath(
      sourceDir,
      summary.index_path ?? summary.manifest_path
    );
    if (manifestPath2 && existsSync(manifestPath2)) {
      return manifestPath2;
    }
  } catch {
  }
  const manifestPath = path3.join(sourceDir, RUN_INTERNAL_DIRNAME, RESULT_INDEX_FILENAME2);
  if (existsSync(manifestPath)) {
    return manifestPath;
  }
  const legacyManifestPath = path3.join(sourceDir, RESULT_INDEX_FILENAME2);
  if (existsSync(legacyManifestPath)) {
    return legacyManifestPath;
  }
  return void 0;
}
function collectArtifactSidecarPointers(sourceDir) {
  const indexPath = resolveLocalResultManifestPath(sourceDir);
  if (!indexPath) {
    return [];
  }
  const pointers = [];
  for (const line of readFileSync2(indexPath, "utf8").split(/\r?\n/)) {
    const trimmed = line.trim();
    if (!trimmed) {
      continue;
    }
    try {
      pointers.push(...artifactSidecarPointers(JSON.parse(trimmed)));
    } catch {
    }
  }
  return pointers;
}
function resolveArtifactPointerSourcePath(sourceDir, pointerPath) {
  const normalizedPointerPath = normalizeDestinationPath(pointerPath);
  const sourceRoot = path3.resolve(sourceDir);
  const sourcePath = path3.resolve(sourceRoot, ...normalizedPointerPath.split("/"));
  const relative = path3.relative(sourceRoot, sourcePath);
  if (relative.startsWith("..") || path3.isAbsolute(relative)) {
    throw new Error(`Artifact pointer path escapes run directory: ${pointerPath}`);
  }
  return sourcePath;
}
function verifyArtifactPointerChecksum(pointer, content) {
  const sha256 = createHash("sha256").update(content).digest("hex");
  if (pointer.sha256 && pointer.sha256 !== sha256) {
    throw new Error(`Artifact pointer checksum mismatch for ${pointer.path}`);
  }
  if (pointer.objectVersion && pointer.objectVersion !== `sha256:${sha256}`) {
    throw new Error(`Artifact pointer object_version mismatch for ${pointer.path}`);
  }
}
async function prepareArtifactSidecar(params) {
  if (params.pointers.length === 0) {
    return void 0;
  }
  const sidecarRoot = await mkdtemp(path3.join(os.tmpdir(), "agentv-artifact-sidecar-"));
  const copied = /* @__PURE__ */ new Set();
  const contentByPath = /* @__PURE__ */ new Map();
  try {
    for (const pointer of params.pointers) {
      const relativePointerPath = normalizeDestinationPath(pointer.path);
      let content = contentByPath.get(relativePointerPath);
      if (!content) {
        const sourcePath = resolveArtifactPointerSourcePath(params.sourceDir, relativePointerPath);
        content = readFileSync2(sourcePath);
        contentByPath.set(relativePointerPath, content);
      }
      verifyArtifactPointerChecksum(pointer, content);
      if (copied.has(relativePointerPath)) {
        continue;
      }
      const destinationPath = path3.join(sidecarRoot, ...relativePointerPath.split("/"));
      mkdirSync(path3.dirname(destinationPath), { recursive: true });
      writeFileSync(destinationPath, content);
      copied.add(relativePointerPath);
    }
  } catch (error) {
    await rm(sidecarRoot, { recursive: true, force: true }).catch(() => void 0);
    throw error;
  }
  if (copied.size === 0) {
    await rm(sidecarRoot, { recursive: true, force: true }).catch(() => void 0);
    return void 0;
  }
  return {
    sourceDir: sidecarRoot,
    cleanup: () => rm(sidecarRoot, { recursive: true, force: true })
  };
}
function rewritePublishedIndexLine(line, destinationPath) {
  if (!line.trim()) {
    return line;
  }
  let record;
  try {
    record = JSON.parse(line);
  } catch {
    return line;
  }
  if (!isRecord2(record) || !isRecord2(record.artifact_pointers)) {
    return line;
  }
  let changed = false;
  const pointer = record.artifact_pointers.transcript;
  if (isRecord2(pointer) && pointer.ref === AGENTV_RESULTS_ARTIFACTS_REF && typeof pointer.path === "string") {
    const key = artifactSidecarKey(destinationPath, pointer.path);
    if (pointer.key !== key) {
      pointer.key = key;
      changed = true;
    }
    if (Object.keys(record.artifact_pointers).length !== 1 || record.artifact_pointers.transcript !== pointer) {
      changed = true;
    }
    record.artifact_pointers = { transcript: pointer };
  } else {
    record.artifact_pointers = void 0;
    changed = true;
  }
  return changed ? JSON.stringify(record) : line;
}
async function preparePublishedResultsSource(params) {
  if (params.pointers.length === 0) {
    return void 0;
  }
  const publishedRoot = await mkdtemp(path3.join(os.tmpdir(), "agentv-results-published-"));
  const omittedPaths = new Set(
    params.pointers.map((pointer) => normalizeDestinationPath(pointer.path))
  );
  try {
    const sourceFiles = await listSourceFiles(params.sourceDir);
    for (const sourceFile of sourceFiles) {
      const relativeFile = path3.relative(params.sourceDir, sourceFile).split(path3.sep).join("/");
      const destinationFile = path3.join(publishedRoot, ...relativeFile.split("/"));
      if (isResultManifestFilename(path3.posix.basename(relativeFile))) {
        const original = readFileSync2(sourceFile, "utf8");
        const rewritten = original.split(/\r?\n/).map((line) => rewritePublishedIndexLine(line, params.destinationPath)).join("\n");
        mkdirSync(path3.dirname(destinationFile), { recursive: true });
        writeFileSync(destinationFile, rewritten);
        continue;
      }
      if (isDeprecatedTraceArtifactPath(relativeFile)) {
        continue;
      }
      if (omittedPaths.has(relativeFile)) {
        continue;
      }
      mkdirSync(path3.dirname(destinationFile), { recursive: true });
      await cp(sourceFile, destinationFile, { dereference: false });
    }
  } catch (error) {
    await rm(publishedRoot, { recursive: true, force: true }).catch(() => void 0);
    throw error;
  }
  return {
    sourceDir: publishedRoot,
    cleanup: () => rm(publishedRoot, { recursive: true, force: true })
  };
}
async function getExistingRunTreePaths(repoDir, ref, destinationTreePath) {
  if (!ref) {
    return [];
  }
  const { stdout } = await runGit(["ls-tree", "-r", "--name-only", ref, destinationTreePath], {
    cwd: repoDir,
    check: false
  });
  return stdout.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
}
async function resolveStorageBranchBase(params) {
  const localRef = `refs/heads/${params.normalized.branch}`;
  const remoteRef = `refs/remotes/${params.normalized.remote}/${params.normalized.branch}`;
  const localExists = await gitRefExists(params.repoDir, localRef);
  const remoteExists = await gitRefExists(params.repoDir, remoteRef);
  const baseRef = params.preferRemote ? remoteExists ? remoteRef : localExists ? localRef : void 0 : localExists ? localRef : remoteExists ? remoteRef : void 0;
  const baseCommit = baseRef ? (await runGit(["rev-parse", `${baseRef}^{commit}`], {
    cwd: params.repoDir
  })).stdout.trim() : void 0;
  const baseTree = baseRef ? (await runGit(["rev-parse", `${baseRef}^{tree}`], {
    cwd: params.repoDir
  })).stdout.trim() : void 0;
  return { baseRef, baseCommit, baseTree, localRef, localExists, remoteRef, remoteExists };
}
async function ensureResultsBranchNotCheckedOut(repoDir, normalized) {
  const currentBranch = await getCurrentBranch(repoDir);
  if (currentBranch !== normalized.branch) {
    return;
  }
  if (usesStorageBranchWorktree(normalized)) {
    throw new Error(
      `Refusing to publish results while '${normalized.branch}' is checked out in ${repoDir}`
    );
  }
  await runGit(["checkout", "--detach"], { cwd: repoDir });
}
async function commitStorageBranchWorktreePaths(params) {
  const { normalized } = params;
  const paths = [...new Set(params.paths.filter(isSafeResultsRepoPath))].sort();
  if (paths.length === 0) {
    return false;
  }
  await assertValidResultsBranchName(params.repoDir, normalized.branch);
  await ensureResultsBranchNotCheckedOut(params.repoDir, normalized);
  let base = await resolveStorageBranchBase({
    repoDir: params.repoDir,
    normalized
  });
  if (!base.baseRef) {
    await createOrphanResultsBranch(params.repoDir, normalized.branch);
    base = await resolveStorageBranchBase({
      repoDir: params.repoDir,
      normalized
    });
  }
  const indexRoot = await mkdtemp(path3.join(os.tmpdir(), "agentv-results-index-"));
  const indexFile = path3.join(indexRoot, "index");
  const indexEnv = { GIT_INDEX_FILE: indexFile };
  try {
    if (base.baseRef) {
      await runGit(["read-tree", base.baseRef], { cwd: params.repoDir, env: indexEnv });
    } else {
      await runGit(["read-tree", "--empty"], { cwd: params.repoDir, env: indexEnv });
    }
    await addResultsGitattributesToIndex(params.repoDir, indexEnv);
    for (const gitPath of paths) {
      const sourcePath = path3.join(params.repoDir, ...gitPath.split("/"));
      if (!existsSync(sourcePath)) {
        await runGit(["update-index", "--force-remove", "--", gitPath], {
          cwd: params.repoDir,
          env: indexEnv,
          check: false
        });
        continue;
      }
      const fileStat = await lstat(sourcePath);
      let mode = fileStat.mode & 73 ? "100755" : "100644";
      if (fileStat.isSymbolicLink()) {
        mode = "120000";
      }
      const { stdout: blob } = await runGit(["hash-object", "-w", "--no-filters", sourcePath], {
        cwd: params.repoDir
      });
      await runGit(["update-index", "--add", "--cacheinfo", `${mode},${blob.trim()},${gitPath}`], {
        cwd: params.repoDir,
        env: indexEnv
      });
    }
    const { stdout: newTreeStdout } = await runGit(["write-tree"], {
      cwd: params.repoDir,
      env: indexEnv
    });
    const newTree = newTreeStdout.trim();
    if (base.baseTree && newTree === base.baseTree) {
      return false;
    }
    const commitArgs = [
      "commit-tree",
      newTree,
      ...base.baseCommit ? ["-p", base.baseCommit] : [],
      "-m",
      params.commitMessage
    ];
    const { stdout: commitStdout } = await runGitWithFallbackCommitIdentity(commitArgs, {
      cwd: params.repoDir
    });
    const commitSha = commitStdout.trim();
    await runGit(
      [
        "update-ref",
        `refs/heads/${normalized.branch}`,
        commitSha,
        ...base.localExists ? [base.baseCommit ?? ""] : []
      ].filter(Boolean),
      { cwd: params.repoDir }
    );
    if (base.remoteExists) {
      await runGit(["branch", "--set-upstream-to", base.remoteRef, normalized.branch], {
        cwd: params.repoDir,
        check: false
      });
    }
    return true;
  } finally {
    await rm(indexRoot, { recursive: true, force: true }).catch(() => void 0);
  }
}
async function commitResultsRunWithTemporaryIndex(params) {
  const { normalized } = params;
  await assertValidResultsBranchName(params.repoDir, normalized.branch);
  await ensureResultsBranchNotCheckedOut(params.repoDir, normalized);
  const destinationRunPath = normalizeDestinationPath(params.destinationPath);
  const destinationTreePath = path3.posix.join(RESULTS_REPO_RUNS_DIR, destinationRunPath);
  let base = await resolveStorageBranchBase({
    repoDir: params.repoDir,
    normalized,
    preferRemote: params.preferRemoteBase
  });
  if (!base.baseRef) {
    await createOrphanResultsBranch(params.repoDir, normalized.branch);
    base = await resolveStorageBranchBase({
      repoDir: params.repoDir,
      normalized,
      preferRemote: params.preferRemoteBase
    });
  }
  const indexRoot = await mkdtemp(path3.join(os.tmpdir(), "agentv-results-index-"));
  const indexFile = path3.join(indexRoot, "index");
  const indexEnv = { GIT_INDEX_FILE: indexFile };
  try {
    if (base.baseRef) {
      await runGit(["read-tree", base.baseRef], { cwd: params.repoDir, env: indexEnv });
    } else {
      await runGit(["read-tree", "--empty"], { cwd: params.repoDir, env: indexEnv });
    }
    await addResultsGitattributesToIndex(params.repoDir, indexEnv);
    const existingPaths = await getExistingRunTreePaths(
      params.repoDir,
      base.baseRef,
      destinationTreePath
    );
    for (const existingPath of existingPaths) {
      await runGit(["update-index", "--force-remove", "--", existingPath], {
        cwd: params.repoDir,
        env: indexEnv,
        check: false
      });
    }
    const sourceFiles = await listSourceFiles(params.sourceDir);
    for (const sourceFile of sourceFiles) {
      const relativeFile = path3.relative(params.sourceDir, sourceFile).split(path3.sep).join("/");
      const destinationFile = path3.posix.join(destinationTreePath, relativeFile);
      const fileStat = await lstat(sourceFile);
      let mode = fileStat.mode & 73 ? "100755" : "100644";
      let hashInputPath = sourceFile;
      if (fileStat.isSymbolicLink()) {
        mode = "120000";
        hashInputPath = sourceFile;
      }
      const { stdout: blob } = await runGit(["hash-object", "-w", "--no-filters", hashInputPath], {
        cwd: params.repoDir
      });
      await runGit(
        ["update-index", "--add", "--cacheinfo", `${mode},${blob.trim()},${destinationFile}`],
        {
          cwd: params.repoDir,
          env: indexEnv
        }
      );
    }
    const { stdout: newTreeStdout } = await runGit(["write-tree"], {
      cwd: params.repoDir,
      env: indexEnv
    });
    const newTree = newTreeStdout.trim();
    if (base.baseTree && newTree === base.baseTree) {
      return {
        commitCreated: false,
        branchUpdated: false,
        upstreamRef: base.remoteExists ? base.remoteRef : void 0
      };
    }
    const commitArgs = [
      "commit-tree",
      newTree,
      ...base.baseCommit ? ["-p", base.baseCommit] : [],
      "-m",
      params.commitMessage,
      "-m",
      `AgentV-Run: ${params.targetRunId}`
    ];
    const { stdout: commitStdout } = await runGitWithFallbackCommitIdentity(commitArgs, {
      cwd: params.repoDir
    });
    const commitSha = commitStdout.trim();
    await runGit(
      [
        "update-ref",
        `refs/heads/${normalized.branch}`,
        commitSha,
        ...base.localExists && !params.preferRemoteBase ? [base.baseCommit ?? ""] : []
      ].filter(Boolean),
      { cwd: params.repoDir }
    );
    if (base.remoteExists) {
      await runGit(["branch", "--set-upstream-to", base.remoteRef, normalized.branch], {
        cwd: params.repoDir,
        check: false
      });
    }
    return {
      commitCreated: true,
      branchUpdated: true,
      upstreamRef: base.remoteExists ? base.remoteRef : void 0
    };
  } finally {
    await rm(indexRoot, { recursive: true, force: true }).catch(() => void 0);
  }
}
function buildDirectPushResult(normalized, changed, outcome) {
  const details = outcome?.details;
  return {
    changed,
    push_conflict_policy: normalized.push_conflict_policy,
    ...outcome?.blocked === true && {
      blocked: true,
      block_reason: outcome.blockReason,
      sync_status: outcome.syncStatus ?? "push_conflict"
    },
    ...pushDetailsToWire(details)
  };
}
function mergeDirectPushResults(normalized, results) {
  const blocked = results.find((result) => result.blocked);
  if (blocked) {
    return blocked;
  }
  const detailed = [...results].reverse().find((result) => result.backup_ref !== void 0 || result.auto_merged_remote === true);
  return {
    changed: results.some((result) => result.changed),
    push_conflict_policy: normalized.push_conflict_policy,
    ...detailed?.auto_merged_remote === true && { auto_merged_remote: true },
    ...detailed?.backup_ref !== void 0 && {
      backup_ref: detailed.backup_ref
    },
    ...detailed?.target_branch !== void 0 && { target_branch: detailed.target_branch },
    ...detailed?.remote_commit !== void 0 && { remote_commit: detailed.remote_commit },
    ...detailed?.local_commit !== void 0 && { local_commit: detailed.local_commit },
    ...detailed?.backup_commit !== void 0 && { backup_commit: detailed.backup_commit },
    ...detailed?.previous_remote_commit !== void 0 && {
      previous_remote_commit: detailed.previous_remote_commit
    },
    ...detailed?.force_pushed_commit !== void 0 && {
      force_pushed_commit: detailed.force_pushed_commit
    },
    ...detailed?.lease_commit !== void 0 && { lease_commit: detailed.lease_commit }
  };
}
async function pushDirectResultsToStorageBranch(params) {
  try {
    await runGit(
      [
        "push",
        "--porcelain",
        params.normalized.remote,
        `refs/heads/${params.storageBranch}:refs/heads/${params.storageBranch}`
      ],
      { cwd: params.repoDir }
    );
    updateStatusFile(params.normalized, {
      last_synced_at: (/* @__PURE__ */ new Date()).toISOString(),
      last_error: void 0
    });
    await fetchResultsRepo(params.repoDir, params.normalized.remote, params.storageBranch).catch(
      () => void 0
    );
    return void 0;
  } catch (error) {
    if (!isNonFastForwardPushError(error)) {
      throw error;
    }
    const outcome = await resolveResultBranchPushConflict({
      normalized: params.normalized,
      repoDir: params.repoDir,
      targetBranch: params.storageBranch,
      sourceRef: `refs/heads/${params.storageBranch}`
    });
    if (outcome.blocked) {
      updateStatusFile(params.normalized, { last_error: outcome.blockReason });
      return outcome;
    }
    updateStatusFile(params.normalized, {
      last_synced_at: (/* @__PURE__ */ new Date()).toISOString(),
      last_error: void 0
    });
    await fetchResultsRepo(params.repoDir, params.normalized.remote, params.storageBranch).catch(
      () => void 0
    );
    return outcome;
  }
}
async function commitAndMaybePushRunTree(params) {
  const result = await commitResultsRunWithTemporaryIndex({
    normalized: params.normalized,
    repoDir: params.repoDir,
    sourceDir: params.sourceDir,
    destinationPath: params.destinationPath,
    commitMessage: params.commitMessage,
    targetRunId: params.targetRunId
  });
  if (!params.shouldPush) {
    updateStatusFile(params.normalized, { last_error: void 0 });
    return buildDirectPushResult(params.normalized, result.commitCreated);
  }
  if (!result.commitCreated) {
    const localBranchExists2 = await gitRefExists(
      params.repoDir,
      `refs/heads/${params.normalized.branch}`
    );
    const hasUnpushed = result.upstreamRef ? localBranchExists2 ? await hasUnpushedCommits(params.repoDir, result.upstreamRef, params.normalized.branch) : false : localBranchExists2;
    if (!hasUnpushed) {
      return buildDirectPushResult(params.normalized, false);
    }
    const aheadPaths = result.upstreamRef ? await getAheadPaths(
      params.repoDir,
      result.upstreamRef,
      `refs/heads/${params.normalized.branch}`
    ) : [];
    if (result.upstreamRef && !areSafeResultsRepoPaths(aheadPaths)) {
      const error = new Error("Results repo has non-results committed changes");
      updateStatusFile(params.normalized, { last_error: error.message });
      throw error;
    }
    const outcome2 = await pushDirectResultsToStorageBranch({
      normalized: params.normalized,
      repoDir: params.repoDir,
      storageBranch: params.normalized.branch
    });
    return buildDirectPushResult(params.normalized, !outcome2?.blocked, outcome2);
  }
  const outcome = await pushDirectResultsToStorageBranch({
    normalized: params.normalized,
    repoDir: params.repoDir,
    storageBranch: params.normalized.branch
  });
  return buildDirectPushResult(params.normalized, !outcome?.blocked, outcome);
}
async function directPushResults(params) {
  const result = await directPushResultsWithDetails(params);
  if (result.blocked) {
    throw new ResultsBranchPushConflictError(result);
  }
  return result.changed;
}
async function directPushResultsWithDetails(params) {
  const normalized = normalizeResultsConfig(params.config);
  const repoDir = await ensureResultsRepoClone(normalized);
  await fetchResultsRepo(repoDir, normalized.remote, normalized.branch).catch((error) => {
    if (normalized.require_push) {
      throw error;
    }
  });
  const storageBranch = normalized.branch ?? await resolveDefaultBranch(repoDir);
  const storageConfig = {
    ...normalized,
    branch: storageBranch
  };
  const targetRunId = buildGitRunId(params.destinationPath);
  const shouldPush = normalized.auto_push || normalized.require_push;
  const sidecarPointers = collectArtifactSidecarPointers(params.sourceDir);
  const sidecar = await prepareArtifactSidecar({
    sourceDir: params.sourceDir,
    pointers: sidecarPointers
  });
  let publishedResultsSource;
  try {
    publishedResultsSource = await preparePublishedResultsSource({
      sourceDir: params.sourceDir,
      destinationPath: params.destinationPath,
      pointers: sidecarPointers
    });
    const pushResults = [];
    if (sidecar) {
      await fetchResultsRepo(repoDir, normalized.remote, AGENTV_RESULTS_ARTIFACTS_REF).catch(
        (error) => {
          if (normalized.require_push) {
            throw error;
          }
        }
      );
      const sidecarResult = await commitAndMaybePushRunTree({
        normalized: {
          ...normalized,
          branch: AGENTV_RESULTS_ARTIFACTS_REF
        },
        repoDir,
        sourceDir: sidecar.sourceDir,
        destinationPath: params.destinationPath,
        commitMessage: `chore(results): publish artifact sidecars for ${targetRunId}`,
        targetRunId,
        shouldPush
      });
      pushResults.push(sidecarResult);
      if (sidecarResult.blocked) {
        return sidecarResult;
      }
    }
    pushResults.push(
      await commitAndMaybePushRunTree({
        normalized: storageConfig,
        repoDir,
        sourceDir: publishedResultsSource?.sourceDir ?? params.sourceDir,
        destinationPath: params.destinationPath,
        commitMessage: params.commitMessage,
        targetRunId,
        shouldPush
      })
    );
    return mergeDirectPushResults(normalized, pushResults);
  } finally {
    await publishedResultsSource?.cleanup().catch(() => void 0);
    await sidecar?.cleanup().catch(() => void 0);
  }
}
function safeGitSummaryManifestPath(runDir, manifestPath) {
  if (typeof manifestPath !== "string" || manifestPath.trim().length === 0) {
    return void 0;
  }
  if (manifestPath.startsWith("/")) {
    return void 0;
  }
  const normalized = path3.posix.normalize(manifestPath);
  if (normalized === ".." || normalized.startsWith("../")) {
    return void 0;
  }
  return path3.posix.join(runDir, normalized);
}
function buildGitManifestPaths(treePaths, summaryByPath) {
  const treePathSet = new Set(treePaths);
  const manifestByRunDir = /* @__PURE__ */ new Map();
  for (const [summaryPath, summary] of summaryByPath) {
    const runDir = path3.posix.dirname(summaryPath);
    const relativeRunPath = path3.posix.relative(RESULTS_REPO_RUNS_DIR, runDir);
    if (!isV2ResultsRepoRunPath(relativeRunPath)) {
      continue;
    }
    const manifestPath = safeGitSummaryManifestPath(runDir, summary.index_path ?? summary.manifest_path) ?? fallbackGitManifestPath(runDir, treePathSet);
    if (manifestPath && treePathSet.has(manifestPath)) {
      manifestByRunDir.set(runDir, manifestPath);
    }
  }
  for (const treePath of treePaths) {
    if (!treePath.endsWith(`/${RESULT_INDEX_FILENAME2}`)) {
      continue;
    }
    const runDir = gitRunDirForManifestPath(treePath);
    const relativeRunPath = path3.posix.relative(RESULTS_REPO_RUNS_DIR, runDir);
    if (!isV2ResultsRepoRunPath(relativeRunPath)) {
      continue;
    }
    if (!manifestByRunDir.has(runDir)) {
      manifestByRunDir.set(runDir, treePath);
    }
  }
  return [...manifestByRunDir.values()].sort();
}
function fallbackGitManifestPath(runDir, treePathSet) {
  for (const candidate of [
    path3.posix.join(runDir, ".internal", RESULT_INDEX_FILENAME2),
    path3.posix.join(runDir, RESULT_INDEX_FILENAME2)
  ]) {
    if (treePathSet.has(candidate)) {
      return candidate;
    }
  }
  return void 0;
}
function gitRunDirForManifestPath(manifestPath) {
  const manifestDir = path3.posix.dirname(manifestPath);
  return path3.posix.basename(manifestDir) === ".internal" ? path3.posix.dirname(manifestDir) : manifestDir;
}
function isV2ResultsRepoRunPath(relativeRunPath) {
  const segments = relativeRunPath.split("/").filter(Boolean);
  return segments.length === 1 && !segments[0].startsWith(".");
}
function buildGitRunId(relativeRunPath) {
  const normalized = relativeRunPath.split(path3.sep).join("/");
  const segments = normalized.split("/").filter(Boolean);
  return segments[0] ?? relativeRunPath;
}
function getRunExperiment(runId, summary) {
  const experiment = summary?.metadata?.experiment?.trim();
  if (experiment) {
    return experiment;
  }
  const separatorIndex = runId.lastIndexOf("::");
  return separatorIndex === -1 ? "default" : runId.slice(0, separatorIndex);
}
function computeAveragePassRate(runSummary) {
  if (!runSummary) {
    return void 0;
  }
  const passRates = Object.values(runSummary).map((summary) => summary.pass_rate?.mean).filter((value) => typeof value === "number" && Number.isFinite(value));
  if (passRates.length === 0) {
    return void 0;
  }
  return passRates.reduce((sum, value) => sum + value, 0) / passRates.length;
}
async function runGitBatch(repoDir, input) {
  return new Promise((resolve, reject) => {
    const child = spawn("git", ["cat-file", "--batch"], {
      cwd: repoDir,
      env: getGitEnv(),
      stdio: ["pipe", "pipe", "pipe"]
    });
    const stdoutChunks = [];
    const stderrChunks = [];
    child.stdout.on("data", (chunk) => {
      stdoutChunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    });
    child.stderr.on("data", (chunk) => {
      stderrChunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    });
    child.on("error", (error) => reject(withFriendlyGitHubAuthError(error)));
    child.on("close", (code) => {
      if (code === 0) {
        resolve(Buffer.concat(stdoutChunks));
        return;
      }
      const stderr = Buffer.concat(stderrChunks).toString("utf8").trim();
      reject(
        withFriendlyGitHubAuthError(
          stderr.length > 0 ? new Error(stderr) : new Error("git cat-file failed")
        )
      );
    });
    child.stdin.end(input);
  });
}
function parseGitBatchBlobs(output) {
  const blobs = [];
  let offset = 0;
  while (offset < output.length) {
    const headerEnd = output.indexOf(10, offset);
    if (headerEnd === -1) {
      throw new Error("Malformed git cat-file output: missing header terminator");
    }
    const header = output.subarray(offset, headerEnd).toString("utf8");
    offset = headerEnd + 1;
    if (header.length === 0) {
      continue;
    }
    const missingMatch = /^(.*) missing$/.exec(header);
    if (missingMatch) {
      continue;
    }
    const headerMatch = /^(.*) (\w+) (\d+)$/.exec(header);
    if (!headerMatch) {
      throw new Error(`Malformed git cat-file header: ${header}`);
    }
    const [, objectRef, objectType, sizeText] = headerMatch;
    if (objectType !== "blob") {
      throw new Error(`Unsupported git object type for ${objectRef}: ${objectType}`);
    }
    const size = Number.parseInt(sizeText, 10);
    const contentEnd = offset + size;
    if (contentEnd > output.length) {
      throw new Error(`Malformed git cat-file output for ${objectRef}: truncated blob content`);
    }
    blobs.push({
      size,
      content: output.subarray(offset, contentEnd)
    });
    offset = contentEnd;
    if (offset < output.length && output[offset] === 10) {
      offset += 1;
    }
  }
  return blobs;
}
async function readGitResultArtifact(params) {
  const artifactRef = params.ref ?? AGENTV_RESULTS_ARTIFACTS_REF;
  const normalizedKey = normalizeDestinationPath(params.key);
  const remote = params.remote ?? "origin";
  if (!artifactRef.startsWith("refs/")) {
    await fetchResultsArtifactRef(params.repoDir, remote, artifactRef).catch(() => void 0);
  }
  const candidateRefs = [
    `refs/remotes/${remote}/${artifactRef}`,
    `refs/heads/${artifactRef}`,
    artifactRef
  ].filter((candidate, index, all) => all.indexOf(candidate) === index);
  for (const candidateRef of candidateRefs) {
    const blobs = parseGitBatchBlobs(
      await runGitBatch(params.repoDir, `${candidateRef}:${normalizedKey}
`)
    );
    const blob = blobs[0];
    if (!blob) {
      continue;
    }
    verifyArtifactPointerChecksum(
      {
        path: normalizedKey,
        ...params.sha256 ? { sha256: params.sha256 } : {},
        ...params.objectVersion ? { objectVersion: params.objectVersion } : {}
      },
      blob.content
    );
    return Buffer.from(blob.content);
  }
  return void 0;
}
function buildWipBranchName(runDir) {
  const hostname = os.hostname().replace(/[^A-Za-z0-9._-]+/g, "-").slice(0, 40);
  const runBasename = path3.basename(runDir).replace(/[^A-Za-z0-9._-]+/g, "-").slice(0, 60);
  return `agentv/wip/${hostname}/${runBasename}`;
}
async function setupWipWorktree(params) {
  const normalized = normalizeResultsConfig(params.config);
  const cloneDir = await ensureResultsRepoClone(normalized);
  await fetchResultsRepo(cloneDir, normalized.remote, normalized.branch).catch((error) => {
    if (normalized.require_push) {
      throw error;
    }
  });
  let baseRef = normalized.branch ? await configuredResultsBranchRef(cloneDir, normalized) : remoteBranchRef(await resolveDefaultBranch(cloneDir), normalized.remote);
  if (!baseRef && normalized.branch) {
    await createOrphanResultsBranch(cloneDir, normalized.branch);
    baseRef = normalized.branch;
  }
  if (!baseRef) {
    throw new Error("Could not resolve a base ref for the WIP results branch");
  }
  const worktreeRoot = await mkdtemp(path3.join(os.tmpdir(), "agentv-wip-"));
  const worktreeDir = path3.join(worktreeRoot, "repo");
  await runGit(["worktree", "add", "-B", params.wipBranch, worktreeDir, baseRef], {
    cwd: cloneDir
  });
  return {
    wipBranch: params.wipBranch,
    worktreeDir,
    cloneDir,
    remote: normalized.remote,
    cleanup: async () => {
      try {
        await runGit(["worktree", "remove", "--force", worktreeDir], { cwd: cloneDir });
      } finally {
        await rm(worktreeRoot, { recursive: true, force: true }).catch(() => void 0);
      }
    }
  };
}
async function pushWipCheckpoint(params) {
  const destinationDir = path3.join(
    params.handle.worktreeDir,
    RESULTS_REPO_RUNS_DIR,
    params.destinationPath
  );
  await stageResultsArtifacts({
    repoDir: params.handle.worktreeDir,
    sourceDir: params.sourceDir,
    destinationDir
  });
  writeFileSync(
    path3.join(params.handle.worktreeDir, RESULTS_REPO_GITATTRIBUTES_FILE),
    RESULTS_REPO_GITATTRIBUTES_CONTENT
  );
  await runGit(["add", "--all", "--", RESULTS_REPO_GITATTRIBUTES_FILE, params.destinationPath], {
    cwd: params.handle.worktreeDir
  });
  const { stdout: status } = await runGit(["status", "--porcelain"], {
    cwd: params.handle.worktreeDir,
    check: false
  });
  if (!status.trim()) {
    return false;
  }
  const timestamp = (/* @__PURE__ */ new Date()).toISOString();
  await runGitWithFallbackCommitIdentity(
    ["commit", "--amend", "-m", `wip(results): checkpoint ${params.handle.wipBranch} ${timestamp}`],
    { cwd: params.handle.worktreeDir }
  );
  await runGit(["push", "--force", params.handle.remote, params.handle.wipBranch], {
    cwd: params.handle.worktreeDir
  });
  return true;
}
async function deleteWipBranch(params) {
  const normalized = normalizeResultsConfig(params.config);
  const cloneDir = await ensureResultsRepoClone(normalized);
  const result = await runGit(["push", normalized.remote, "--delete", params.wipBranch], {
    cwd: cloneDir,
    check: false
  });
  if (result.exitCode === 0 || isMissingRemoteRefDelete(result)) {
    return;
  }
  throw new Error(result.stderr.trim() || result.stdout.trim() || "Failed to delete WIP branch");
}
function isMissingRemoteRefDelete(result) {
  const text = `${result.stderr}
${result.stdout}`.toLowerCase();
  return text.includes("remote ref does not exist");
}
function isMissingGitRefError(error) {
  const parts = [];
  if (error && typeof error === "object") {
    const e = error;
    if (typeof e.stderr === "string") parts.push(e.stderr);
    if (typeof e.message === "string") parts.push(e.message);
  } else if (typeof error === "string") {
    parts.push(error);
  }
  const haystack = parts.join("\n").toLowerCase();
  return haystack.includes("not a valid object name") || haystack.includes("unknown revision or path") || haystack.includes("bad revision") || haystack.includes("does not exist") || haystack.includes("needed a single revision");
}
function gitResultsIndexHash(value) {
  return createHash("sha256").update(value).digest("hex");
}
function resolveGitResultsIndexRepoDir(repoDir) {
  const resolved = path3.resolve(repoDir);
  try {
    return realpathSync(resolved);
  } catch {
    return resolved;
  }
}
function gitResultsIndexRepoKey(repoDir) {
  return `sha256-${gitResultsIndexHash(resolveGitResultsIndexRepoDir(repoDir)).slice(0, 32)}`;
}
function gitResultsIndexRefKey(ref) {
  const slug = sanitizeRepoSlug(ref).slice(0, 80) || "default";
  return `${slug}-${gitResultsIndexHash(ref).slice(0, 16)}`;
}
function resolveGitResultsIndexCacheFile(params) {
  const ref = params.ref ?? "origin/main";
  return path3.join(
    getAgentvDataDir(),
    "cache",
    "results-index",
    gitResultsIndexRepoKey(params.repoDir),
    gitResultsIndexRefKey(ref),
    `${params.commitSha}.json`
  );
}
function isGitListedRun(value) {
  if (!value || typeof value !== "object") return false;
  const record = value;
  return typeof record.run_id === "string" && typeof record.experiment === "string" && typeof record.timestamp === "string" && (typeof record.index_path === "string" || typeof record.manifest_path === "string") && typeof record.display_name === "string" && typeof record.test_count === "number" && typeof record.avg_score === "number" && typeof record.size_bytes === "number" && (record.execution_error_count === void 0 || typeof record.execution_error_count === "number") && (record.pass_rate === void 0 || typeof record.pass_rate === "number") && (record.target === void 0 || typeof record.target === "string") && (record.summary_path === void 0 || typeof record.summary_path === "string");
}
function validateGitResultsIndexCacheFile(value, params) {
  if (!value || typeof value !== "object") return void 0;
  const record = value;
  const repoDir = resolveGitResultsIndexRepoDir(params.repoDir);
  const repoKey = gitResultsIndexRepoKey(params.repoDir);
  if (record.schema_version !== GIT_RESULTS_INDEX_CACHE_SCHEMA_VERSION || record.result_layout_version !== GIT_RESULTS_INDEX_LAYOUT_VERSION || record.repo_key !== repoKey || record.repo_dir !== repoDir || record.ref !== params.ref || record.commit_sha !== params.commitSha || !Array.isArray(record.runs) || !record.runs.every(isGitListedRun)) {
    return void 0;
  }
  return value;
}
async function readGitResultsIndexCache(params) {
  const cacheFile = resolveGitResultsIndexCacheFile(params);
  try {
    const parsed = JSON.parse(await readFile(cacheFile, "utf8"));
    return validateGitResultsIndexCacheFile(parsed, params)?.runs;
  } catch {
    return void 0;
  }
}
async function writeGitResultsIndexCache(params) {
  const cacheFile = resolveGitResultsIndexCacheFile(params);
  const envelope = {
    schema_version: GIT_RESULTS_INDEX_CACHE_SCHEMA_VERSION,
    result_layout_version: GIT_RESULTS_INDEX_LAYOUT_VERSION,
    repo_key: gitResultsIndexRepoKey(params.repoDir),
    repo_dir: resolveGitResultsIndexRepoDir(params.repoDir),
    ref: params.ref,
    commit_sha: params.commitSha,
    generated_at: (/* @__PURE__ */ new Date()).toISOString(),
    runs: params.runs
  };
  try {
    mkdirSync(path3.dirname(cacheFile), { recursive: true });
    const tempFile = `${cacheFile}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tempFile, `${JSON.stringify(envelope, null, 2)}
`, "utf8");
    renameSync(tempFile, cacheFile);
  } catch {
  }
}
async function resolveGitRunsRefCommit(repoDir, ref = "origin/main") {
  try {
    const { stdout } = await runGit(["rev-parse", "--verify", `${ref}^{commit}`], {
      cwd: repoDir
    });
    return stdout.trim() || void 0;
  } catch (error) {
    if (isMissingGitRefError(error)) {
      return void 0;
    }
    throw error;
  }
}
async function listGitRunsCached(repoDir, ref = "origin/main") {
  const commitSha = await resolveGitRunsRefCommit(repoDir, ref);
  if (!commitSha) {
    return [];
  }
  const cached = await readGitResultsIndexCache({ repoDir, ref, commitSha });
  if (cached) {
    return [...cached];
  }
  const runs = await listGitRuns(repoDir, ref);
  await writeGitResultsIndexCache({ repoDir, ref, commitSha, runs });
  return runs;
}
async function listGitRuns(repoDir, ref = "origin/main") {
  let treeOut;
  try {
    ({ stdout: treeOut } = await runGit(
      ["ls-tree", "-r", "--name-only", ref, RESULTS_REPO_RUNS_DIR],
      {
        cwd: repoDir
      }
    ));
  } catch (error) {
    if (isMissingGitRefError(error)) {
      return [];
    }
    throw error;
  }
  const treePaths = treeOut.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const summaryPaths = treePaths.filter((line) => line.endsWith("/summary.json"));
  const summaryByPath = /* @__PURE__ */ new Map();
  if (summaryPaths.length > 0) {
    const summaryBatchInput = `${summaryPaths.map((summaryPath) => `${ref}:${summaryPath}`).join("\n")}
`;
    const summaryBlobs = parseGitBatchBlobs(await runGitBatch(repoDir, summaryBatchInput));
    for (let i = 0; i < summaryBlobs.length; i++) {
      const summaryPath = summaryPaths[i];
      const blob = summaryBlobs[i];
      if (!summaryPath || !blob) continue;
      summaryByPath.set(summaryPath, JSON.parse(blob.content.toString("utf8")));
    }
  }
  const indexPaths = buildGitManifestPaths(treePaths, summaryByPath);
  if (indexPaths.length === 0) {
    return [];
  }
  const batchInput = `${indexPaths.map((indexPath) => `${ref}:${indexPath}`).join("\n")}
`;
  const blobs = parseGitBatchBlobs(await runGitBatch(repoDir, batchInput));
  if (blobs.length !== indexPaths.length) {
    throw new Error(
      `Expected ${indexPaths.length} git blobs but received ${blobs.length} while listing results runs`
    );
  }
  const runs = blobs.flatMap((blob, index) => {
    const manifestPath = indexPaths[index];
    const runDir = gitRunDirForManifestPath(manifestPath);
    const summaryPath = path3.posix.join(runDir, "summary.json");
    const summary = summaryByPath.get(summaryPath);
    const relativeRunPath = path3.posix.relative(RESULTS_REPO_RUNS_DIR, runDir);
    const runId = buildGitRunId(relativeRunPath);
    const rows = blob.content.toString("utf8").split(/\r?\n/).map((line) => line.trim()).filter(Boolean).flatMap(
      (line) => {
        try {
          return [
            JSON.parse(line)
          ];
        } catch {
          return [];
        }
      }
    );
    const rowTargets = [
      ...new Set(rows.map((row) => row.target).filter((target) => !!target))
    ];
    const rowTestIds = [
      ...new Set(rows.map((row) => row.test_id).filter((testId) => !!testId))
    ];
    const rowScores = rows.map((row) => row.score).filter((score) => typeof score === "number" && Number.isFinite(score));
    const avgScore = rowScores.length > 0 ? rowScores.reduce((sum, score) => sum + score, 0) / rowScores.length : 0;
    const timestamp = summary?.metadata?.timestamp?.trim() || rows[0]?.timestamp || path3.posix.basename(runDir);
    const displayName = summary?.metadata?.display_name?.trim() || path3.posix.basename(runDir);
    const targets = summary?.metadata?.targets ?? rowTargets;
    const passRate = computeAveragePassRate(summary?.run_summary) ?? avgScore;
    const executionErrorCount = rows.filter(
      (row) => row.execution_status === "execution_error"
    ).length;
    return [
      {
        run_id: runId,
        experiment: getRunExperiment(runId, summary),
        timestamp,
        ...passRate !== void 0 && { pass_rate: passRate },
        ...targets.length === 1 && targets[0] ? { target: targets[0] } : {},
        index_path: manifestPath,
        ...summaryByPath.has(summaryPath) && { summary_path: summaryPath },
        display_name: displayName,
        test_count: summary?.metadata?.tests_run?.length ?? rowTestIds.length,
        ...executionErrorCount > 0 && { execution_error_count: executionErrorCount },
        avg_score: avgScore,
        size_bytes: blob.size
      }
    ];
  });
  runs.sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  return runs;
}
async function materializeGitRun(repoDir, relativeRunPath, ref = "origin/main") {
  const normalizedRunPath = relativeRunPath.split(path3.sep).join("/");
  const runTreePath = path3.posix.join(RESULTS_REPO_RUNS_DIR, normalizedRunPath);
  const targetRunDir = path3.join(repoDir, ...runTreePath.split("/"));
  const { stdout: treeOut } = await runGit(["ls-tree", "-r", "--name-only", ref, runTreePath], {
    cwd: repoDir
  });
  const filePaths = treeOut.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
  if (filePaths.length === 0) {
    return;
  }
  const batchInput = `${filePaths.map((filePath) => `${ref}:${filePath}`).join("\n")}
`;
  const blobs = parseGitBatchBlobs(await runGitBatch(repoDir, batchInput));
  if (blobs.length !== filePaths.length) {
    throw new Error(
      `Expected ${filePaths.length} git blobs but received ${blobs.length} while materializing results run`
    );
  }
  const tempRoot = mkdtempSync(path3.join(repoDir, ".agentv-run-"));
  const tempRunDir = path3.join(tempRoot, "run");
  try {
    for (const [index, filePath] of filePaths.entries()) {
      const relativeFilePath = path3.posix.relative(runTreePath, filePath);
      const absolutePath = path3.join(tempRunDir, ...relativeFilePath.split("/"));
      mkdirSync(path3.dirname(absolutePath), { recursive: true });
      writeFileSync(absolutePath, blobs[index].content);
    }
    mkdirSync(path3.dirname(targetRunDir), { recursive: true });
    try {
      renameSync(tempRunDir, targetRunDir);
    } catch (error) {
      const code = typeof error === "object" && error !== null && "code" in error ? error.code : void 0;
      if ((code === "EEXIST" || code === "ENOTEMPTY") && existsSync(targetRunDir)) {
        return;
      }
      throw error;
    }
  } finally {
    rmSync(tempRoot, { recursive: true, force: true });
  }
}
async function syncProject(entry) {
  if (!entry.repoUrl) {
    throw new Error(`Project '${entry.id}' has no repo.url defined`);
  }
  if (!entry.ref) {
    throw new Error(`Project '${entry.id}' has no repo.branch defined`);
  }
  const dest = entry.path;
  if (existsSync2(`${dest}/.git`)) {
    childProcess.execFileSync("git", ["-C", dest, "pull", "--ff-only"], { stdio: "inherit" });
  } else {
    childProcess.execFileSync(
      "git",
      ["clone", "--depth", "1", "--filter=blob:none", "--branch", entry.ref, entry.repoUrl, dest],
      { stdio: "inherit" }
    );
  }
}
async function syncProjects(entries) {
  for (const entry of entries) {
    if (!entry.repoUrl) continue;
    console.log(`Syncing project '${entry.id}' from ${entry.repoUrl}...`);
    await syncProject(entry);
    console.log(`Project '${entry.id}' synced.`);
  }
}
var STRIPPED_TOP_LEVEL_FIELDS = /* @__PURE__ */ new Set([
  "requests",
  "trace",
  "workspacePath",
  "output",
  "beforeAllOutput",
  "beforeEachOutput",
  "afterAllOutput",
  "afterEachOutput",
  "fileChanges",
  // Promoted execution metrics (debug, not needed for regression comparison)
  "tokenUsage",
  "costUsd",
  "durationMs",
  "startTime",
  "endTime"
]);
var STRIPPED_EVALUATOR_FIELDS = /* @__PURE__ */ new Set(["rawRequest", "input"]);
function trimEvaluatorResult(result) {
  const trimmed = {};
  for (const [key, value] of Object.entries(result)) {
    if (STRIPPED_EVALUATOR_FIELDS.has(key)) continue;
    if (key === "scores" && Array.isArray(value)) {
      trimmed[key] = value.map(trimEvaluatorResult);
    } else {
      trimmed[key] = value;
    }
  }
  return trimmed;
}
function trimBaselineResult(result) {
  const trimmed = {};
  for (const [key, value] of Object.entries(result)) {
    if (STRIPPED_TOP_LEVEL_FIELDS.has(key)) continue;
    if (key === "scores" && Array.isArray(value)) {
      trimmed[key] = value.map(trimEvaluatorResult);
    } else {
      trimmed[key] = value;
    }
  }
  return trimmed;
}
var RunBudgetTracker = class {
  constructor(capUsd) {
    this.capUsd = capUsd;
  }
  cumulative = 0;
  /** Accumulate cost from a completed test or file. */
  add(costUsd) {
    this.cumulative += costUsd;
  }
  /** True when cumulative cost meets or exceeds the cap. */
  isExceeded() {
    return this.cumulative >= this.capUsd;
  }
  /** Current accumulated cost. */
  get currentCostUsd() {
    return this.cumulative;
  }
  /** The configured cap. */
  get budgetCapUsd() {
    return this.capUsd;
  }
};
function parseEnvOutput(stdout) {
  const result = {};
  for (const line of stdout.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#")) continue;
    const match = trimmed.match(/^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/);
    if (!match) continue;
    const key = match[1];
    let value = match[2];
    if (value.startsWith('"') && value.endsWith('"') || value.startsWith("'") && value.endsWith("'")) {
      value = value.slice(1, -1);
    }
    if (key) {
      result[key] = value;
    }
  }
  return result;
}
function runBeforeSessionHook(command) {
  const isWindows = process.platform === "win32";
  const shell = isWindows ? "cmd" : "sh";
  const shellFlag = isWindows ? "/c" : "-c";
  console.log(`Running before_session hook: ${command}`);
  const result = spawnSync(shell, [shellFlag, command], {
    encoding: "utf8",
    // Do not inherit stdio — capture stdout for parsing, forward stderr manually
    stdio: ["ignore", "pipe", "pipe"]
  });
  if (result.stderr) {
    process.stderr.write(result.stderr);
  }
  if (result.error) {
    throw new Error(`before_session hook failed to start: ${result.error.message}`);
  }
  if (result.status !== 0) {
    throw new Error(
      `before_session hook exited with code ${result.status ?? "unknown"}: ${command}`
    );
  }
  const vars = parseEnvOutput(result.stdout ?? "");
  let injected = 0;
  for (const [key, value] of Object.entries(vars)) {
    if (process.env[key] === void 0) {
      process.env[key] = value;
      injected++;
    }
  }
  if (injected > 0) {
    console.log(`before_session hook injected ${injected} environment variable(s).`);
  }
}
var ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
function parseShellExportsEnv(content) {
  const result = {};
  for (const line of content.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#")) continue;
    const match = trimmed.match(/^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/);
    if (!match) continue;
    const key = match[1];
    let value = match[2];
    if (value.startsWith('"') && value.endsWith('"') || value.startsWith("'") && value.endsWith("'")) {
      value = value.slice(1, -1);
    }
    result[key] = value;
  }
  return result;
}
function parseJsonEnv(content) {
  let parsed;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw new Error("invalid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error("expected a flat JSON object of string values");
  }
  const result = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!ENV_NAME_PATTERN.test(key)) {
      throw new Error(`invalid environment variable name "${key}"`);
    }
    if (typeof value !== "string") {
      throw new Error(`value for "${key}" must be a string`);
    }
    result[key] = value;
  }
  return result;
}
function injectEnv(vars) {
  let injected = 0;
  for (const [key, value] of Object.entries(vars)) {
    if (!ENV_NAME_PATTERN.test(key)) continue;
    if (process.env[key] === void 0) {
      process.env[key] = value;
      injected++;
    }
  }
  return injected;
}
async function loadEnvPathFiles(envPaths, baseDir) {
  const loaded = [];
  const missing = [];
  let injectedCount = 0;
  for (const envPath of envPaths) {
    const resolvedPath = path4.isAbsolute(envPath) ? envPath : path4.join(baseDir, envPath);
    let content;
    try {
      content = await readFile2(resolvedPath, "utf8");
    } catch (error) {
      if (error.code === "ENOENT") {
        missing.push(resolvedPath);
        logWarning(`env_path file not found: ${resolvedPath}`);
        continue;
      }
      throw new Error(`Could not read env_path file ${resolvedPath}: ${error.message}`);
    }
    injectedCount += injectEnv(parseShellExportsEnv(content));
    loaded.push(resolvedPath);
  }
  if (injectedCount > 0) {
    console.log(
      `env_path injected ${injectedCount} environment variable(s) from ${loaded.length} file(s).`
    );
  }
  return { loaded, missing, injectedCount };
}
function parseEnvFromOutput(stdout, format) {
  return format === "json" ? parseJsonEnv(stdout) : parseShellExportsEnv(stdout);
}
async function runEnvFromEntries(entries, options) {
  let injectedCount = 0;
  for (const entry of entries) {
    const [command, ...args] = entry.command;
    const commandLabel = entry.command.join(" ");
    console.log(`Running env_from command: ${commandLabel}`);
    const result = spawnSync2(command, args, {
      cwd: options.cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"]
    });
    if (result.stderr) {
      process.stderr.write(result.stderr);
    }
    if (result.error) {
      throw new Error(`env_from command failed to start: ${commandLabel}: ${result.error.message}`);
    }
    if (result.status !== 0) {
      throw new Error(
        `env_from command exited with code ${result.status ?? "unknown"}: ${commandLabel}`
      );
    }
    const format = entry.format ?? "shell_exports";
    let vars;
    try {
      vars = parseEnvFromOutput(result.stdout ?? "", format);
    } catch (error) {
      throw new Error(
        `env_from command produced invalid ${format} output: ${commandLabel}: ${error.message}`
      );
    }
    injectedCount += injectEnv(vars);
  }
  if (injectedCount > 0) {
    console.log(`env_from injected ${injectedCount} environment variable(s).`);
  }
  return { injectedCount };
}
function logWarning(message) {
  console.warn(`Warning: ${message}`);
}
var SKIPPED_TYPES = /* @__PURE__ */ new Set(["progress", "system", "file-history-snapshot"]);
function parseClaudeSession(jsonl) {
  const messages = [];
  let sessionId = "";
  let projectPath;
  let model;
  let startTimestamp;
  let endTimestamp;
  const usageByRequestId = /* @__PURE__ */ new Map();
  let lastAssistantRequestId;
  let lastAssistantIdx = -1;
  const pendingToolCalls = /* @__PURE__ */ new Map();
  const lines = jsonl.split("\n").filter((l) => l.trim().length > 0);
  for (const line of lines) {
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (!event.type) continue;
    if (event.timestamp) {
      if (!startTimestamp) startTimestamp = event.timestamp;
      endTimestamp = event.timestamp;
    }
    if (SKIPPED_TYPES.has(event.type)) continue;
    if (event.isSidechain) continue;
    if (!sessionId && event.sessionId) {
      sessionId = event.sessionId;
    }
    if (!projectPath && event.cwd) {
      projectPath = event.cwd;
    }
    switch (event.type) {
      case "user": {
        const msg = event.message;
        if (!msg) break;
        const contentArr = msg.content;
        if (Array.isArray(contentArr)) {
          for (const block of contentArr) {
            if (block.type === "tool_result" && block.tool_use_id) {
              const pending = pendingToolCalls.get(block.tool_use_id);
              if (pending) {
                const existingMsg = messages[pending.msgIdx];
                const existingCalls = [...existingMsg.toolCalls ?? []];
                existingCalls[pending.toolIdx] = {
                  ...existingCalls[pending.toolIdx],
                  output: extractToolResultContent(block.content)
                };
                messages[pending.msgIdx] = { ...existingMsg, toolCalls: existingCalls };
                pendingToolCalls.delete(block.tool_use_id);
              }
            }
          }
        }
        const text = extractTextContent(contentArr);
        if (text !== void 0) {
          messages.push({ role: "user", content: text });
        }
        break;
      }
      case "assistant": {
        const msg = event.message;
        if (!msg) break;
        if (!model && msg.model) {
          model = msg.model;
        }
        if (msg.usage && event.requestId) {
          usageByRequestId.set(event.requestId, msg.usage);
        }
        const { text, toolCalls } = extractAssistantContent(msg.content);
        if (event.requestId && event.requestId === lastAssistantRequestId && lastAssistantIdx >= 0) {
          messages[lastAssistantIdx] = {
            role: "assistant",
            content: text || void 0,
            toolCalls: toolCalls.length > 0 ? toolCalls : void 0
          };
          registerPendingToolCalls(toolCalls, lastAssistantIdx, pendingToolCalls);
        } else {
          if (text || toolCalls.length > 0) {
            lastAssistantIdx = messages.length;
            messages.push({
              role: "assistant",
              content: text || void 0,
              toolCalls: toolCalls.length > 0 ? toolCalls : void 0
            });
            registerPendingToolCalls(toolCalls, lastAssistantIdx, pendingToolCalls);
          }
        }
        lastAssistantRequestId = event.requestId;
        break;
      }
    }
  }
  let totalInputTokens = 0;
  let totalOutputTokens = 0;
  for (const usage of usageByRequestId.values()) {
    totalInputTokens += Number(usage.input_tokens ?? 0);
    totalOutputTokens += Number(usage.output_tokens ?? 0);
  }
  const hasUsage = usageByRequestId.size > 0;
  let durationMs;
  if (startTimestamp && endTimestamp) {
    durationMs = new Date(endTimestamp).getTime() - new Date(startTimestamp).getTime();
  }
  const source = {
    provider: "claude-sdk",
    sessionId,
    projectPath,
    startedAt: startTimestamp,
    model
  };
  return {
    messages,
    source,
    tokenUsage: hasUsage ? { input: totalInputTokens, output: totalOutputTokens } : void 0,
    durationMs,
    costUsd: null
  };
}
function registerPendingToolCalls(toolCalls, msgIdx, pending) {
  for (let i = 0; i < toolCalls.length; i++) {
    const id = toolCalls[i].id;
    if (id) {
      pending.set(id, { msgIdx, toolIdx: i });
    }
  }
}
function extractTextContent(content) {
  if (content === void 0 || content === null) return void 0;
  if (typeof content === "string") return content;
  const textParts = [];
  for (const block of content) {
    if (block.type === "text" && block.text) {
      textParts.push(block.text);
    }
  }
  return textParts.length > 0 ? textParts.join("") : void 0;
}
function extractAssistantContent(content) {
  if (content === void 0 || content === null) {
    return { text: void 0, toolCalls: [] };
  }
  if (typeof content === "string") {
    return { text: content, toolCalls: [] };
  }
  const textParts = [];
  const toolCalls = [];
  for (const block of content) {
    switch (block.type) {
      case "text":
        if (block.text) textParts.push(block.text);
        break;
      case "tool_use":
        if (block.name) {
          toolCalls.push(
            normalizeToolCall("claude-sdk", {
              tool: block.name,
              input: block.input,
              id: block.id
            })
          );
        }
        break;
    }
  }
  return {
    text: textParts.length > 0 ? textParts.join("") : void 0,
    toolCalls
  };
}
function extractToolResultContent(content) {
  if (content === void 0 || content === null) return void 0;
  if (typeof content === "string") return content;
  const parts = [];
  for (const block of content) {
    if (block.type === "text" && block.text) {
      parts.push(block.text);
    }
  }
  return parts.length > 0 ? parts.join("") : void 0;
}
function parseCodexSession(jsonl) {
  const messages = [];
  let sessionId = "";
  let cwd;
  let model;
  let version;
  let startTimestamp;
  let endTimestamp;
  const pendingCalls = /* @__PURE__ */ new Map();
  const lines = jsonl.split("\n").filter((l) => l.trim().length > 0);
  for (const line of lines) {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (!entry.type) continue;
    if (entry.timestamp) {
      if (!startTimestamp) startTimestamp = entry.timestamp;
      endTimestamp = entry.timestamp;
    }
    const payload = entry.payload ?? {};
    switch (entry.type) {
      case "session_meta": {
        sessionId = String(payload.id ?? "");
        cwd = payload.cwd ? String(payload.cwd) : void 0;
        version = payload.cli_version ? String(payload.cli_version) : void 0;
        if (payload.model && !model) {
          model = String(payload.model);
        }
        break;
      }
      case "turn_context": {
        if (payload.model && !model) {
          model = String(payload.model);
        }
        if (payload.cwd && !cwd) {
          cwd = String(payload.cwd);
        }
        break;
      }
      case "response_item": {
        const itemType = String(payload.type ?? "");
        const role = String(payload.role ?? "");
        switch (itemType) {
          case "message": {
            if (role === "developer") break;
            const content = extractResponseItemContent(payload.content);
            if (role === "user" && content) {
              messages.push({ role: "user", content });
            } else if (role === "assistant" && content) {
              messages.push({ role: "assistant", content });
            }
            break;
          }
          case "function_call": {
            const toolName = String(payload.name ?? "");
            const callId = String(payload.call_id ?? "");
            let input;
            if (typeof payload.arguments === "string") {
              try {
                input = JSON.parse(payload.arguments);
              } catch {
                input = payload.arguments;
              }
            } else {
              input = payload.arguments;
            }
            const toolCall = normalizeToolCall("codex-cli", {
              tool: toolName,
              input,
              id: callId
            });
            const msgIdx = messages.length;
            messages.push({
              role: "assistant",
              toolCalls: [toolCall]
            });
            if (callId) {
              pendingCalls.set(callId, { msgIdx, toolIdx: 0 });
            }
            break;
          }
          case "custom_tool_call": {
            const toolName = String(payload.name ?? "");
            const callId = String(payload.call_id ?? "");
            let input;
            if (typeof payload.arguments === "string") {
              try {
                input = JSON.parse(payload.arguments);
              } catch {
                input = payload.arguments;
              }
            } else {
              input = payload.arguments;
            }
            const toolCall = normalizeToolCall("codex-cli", {
              tool: toolName,
              input,
              id: callId
            });
            const msgIdx = messages.length;
            messages.push({
              role: "assistant",
              toolCalls: [toolCall]
            });
            if (callId) {
              pendingCalls.set(callId, { msgIdx, toolIdx: 0 });
            }
            break;
          }
          case "function_call_output":
          case "custom_tool_call_output": {
            const callId = String(payload.call_id ?? "");
            const pending = pendingCalls.get(callId);
            if (pending) {
              const existingMsg = messages[pending.msgIdx];
              const existingCalls = [...existingMsg.toolCalls ?? []];
              existingCalls[pending.toolIdx] = {
                ...existingCalls[pending.toolIdx],
                output: payload.output
              };
              messages[pending.msgIdx] = { ...existingMsg, toolCalls: existingCalls };
              pendingCalls.delete(callId);
            }
            break;
          }
          // Skip reasoning blocks (thinking tokens)
          case "reasoning":
            break;
        }
        break;
      }
    }
  }
  let durationMs;
  if (startTimestamp && endTimestamp) {
    durationMs = new Date(endTimestamp).getTime() - new Date(startTimestamp).getTime();
  }
  const source = {
    provider: "codex",
    sessionId,
    cwd,
    startedAt: startTimestamp,
    model,
    version
  };
  return {
    messages,
    source,
    // Codex rollout files don't include token counts (only rate limit info)
    tokenUsage: void 0,
    durationMs,
    costUsd: null
  };
}
function extractResponseItemContent(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return void 0;
  const parts = [];
  for (const block of content) {
    if (typeof block === "object" && block !== null) {
      const b = block;
      if (typeof b.text === "string") {
        parts.push(b.text);
      }
    }
  }
  return parts.length > 0 ? parts.join("") : void 0;
}
var DEFAULT_SESSIONS_DIR = () => path5.join(homedir(), ".codex", "sessions");
async function discoverCodexSessions(opts) {
  const sessionsDir = opts?.sessionsDir ?? DEFAULT_SESSIONS_DIR();
  const limit = opts?.latest ? 1 : opts?.limit ?? 10;
  const sessions = [];
  let yearDirs;
  try {
    yearDirs = await readdir2(sessionsDir);
  } catch {
    return [];
  }
  for (const year of yearDirs) {
    const yearPath = path5.join(sessionsDir, year);
    let monthDirs;
    try {
      monthDirs = await readdir2(yearPath);
    } catch {
      continue;
    }
    for (const month of monthDirs) {
      const monthPath = path5.join(yearPath, month);
      let dayDirs;
      try {
        dayDirs = await readdir2(monthPath);
      } catch {
        continue;
      }
      for (const day of dayDirs) {
        if (opts?.date) {
          const dirDate = `${year}-${month}-${day}`;
          if (dirDate !== opts.date) continue;
        }
        const dayPath = path5.join(monthPath, day);
        let files;
        try {
          files = await readdir2(dayPath);
        } catch {
          continue;
        }
        for (const file of files) {
          if (!file.startsWith("rollout-") || !file.endsWith(".jsonl")) continue;
          const filePath = path5.join(dayPath, file);
          const nameWithoutExt = file.replace(/\.jsonl$/, "");
          const parts = nameWithoutExt.split("-");
          const sessionId = parts.length >= 6 ? parts.slice(-5).join("-") : nameWithoutExt;
          let updatedAt;
          try {
            const fileStat = await stat2(filePath);
            updatedAt = fileStat.mtime;
          } catch {
            updatedAt = /* @__PURE__ */ new Date(0);
          }
          sessions.push({ sessionId, filePath, filename: file, updatedAt });
        }
      }
    }
  }
  sessions.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  return sessions.slice(0, limit);
}
var DEFAULT_PROJECTS_DIR = () => path6.join(homedir2(), ".claude", "projects");
function encodeProjectPath(projectPath) {
  return projectPath.replace(/\//g, "-");
}
async function discoverClaudeSessions(opts) {
  const projectsDir = opts?.projectsDir ?? DEFAULT_PROJECTS_DIR();
  const limit = opts?.latest ? 1 : opts?.limit ?? 10;
  let projectDirs;
  try {
    projectDirs = await readdir3(projectsDir);
  } catch {
    return [];
  }
  if (opts?.projectPath) {
    const encoded = encodeProjectPath(opts.projectPath);
    projectDirs = projectDirs.filter((dir) => dir === encoded || dir.includes(encoded));
  }
  const sessions = [];
  for (const projectDir of projectDirs) {
    const dirPath = path6.join(projectsDir, projectDir);
    let entries;
    try {
      entries = await readdir3(dirPath);
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.endsWith(".jsonl")) continue;
      const sessionId = entry.replace(/\.jsonl$/, "");
      if (opts?.sessionId && sessionId !== opts.sessionId) continue;
      const filePath = path6.join(dirPath, entry);
      let updatedAt;
      try {
        const fileStat = await stat3(filePath);
        updatedAt = fileStat.mtime;
      } catch {
        updatedAt = /* @__PURE__ */ new Date(0);
      }
      sessions.push({
        sessionId,
        filePath,
        projectDir,
        updatedAt
      });
    }
  }
  sessions.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  return sessions.slice(0, limit);
}
var TranscriptProvider = class _TranscriptProvider {
  id;
  kind = "transcript";
  targetName;
  entries;
  entriesByTestId;
  cursor = 0;
  constructor(targetName, entries) {
    this.targetName = targetName;
    this.id = `transcript:${targetName}`;
    this.entries = entries;
    this.entriesByTestId = new Map(entries.map((entry) => [entry.testId, entry]));
  }
  /**
   * Create a TranscriptProvider from a JSONL file path.
   */
  static async fromFile(filePath) {
    const lines = await readTranscriptJsonl(filePath);
    if (lines.length === 0) {
      throw new Error(`Transcript file is empty: ${filePath}`);
    }
    const entries = groupTranscriptJsonLines(lines);
    const providerName = entries[0]?.source.provider ?? "transcript";
    return new _TranscriptProvider(providerName, entries);
  }
  get lineCount() {
    return this.entries.length;
  }
  get testIds() {
    return this.entries.map((entry) => entry.testId);
  }
  async invoke(request) {
    const entry = request.evalCaseId ? this.entryForTestId(request.evalCaseId) : this.nextPositionalEntry();
    return {
      output: entry.messages,
      tokenUsage: entry.tokenUsage ? {
        input: entry.tokenUsage.input,
        output: entry.tokenUsage.output,
        cached: entry.tokenUsage.cached,
        reasoning: entry.tokenUsage.reasoning
      } : void 0,
      durationMs: entry.durationMs,
      costUsd: entry.costUsd ?? void 0,
      startTime: entry.source.startedAt
    };
  }
  entryForTestId(testId) {
    const entry = this.entriesByTestId.get(testId);
    if (entry) {
      return entry;
    }
    throw new Error(
      `Transcript replay found no entry for test_id=${testId}. Available test_id values: ${this.testIds.join(", ") || "<none>"}`
    );
  }
  nextPositionalEntry() {
    if (this.cursor >= this.entries.length) {
      throw new Error(
        `Transcript exhausted: ${this.entries.length} entr${this.entries.length === 1 ? "y" : "ies"} available but ${this.cursor + 1} invocations attempted. Each transcript entry maps to one test case.`
      );
    }
    return this.entries[this.cursor++];
  }
};
function parseCopilotEvents(eventsJsonl) {
  const messages = [];
  const meta = { sessionId: "", model: "", cwd: "" };
  let totalInputTokens = 0;
  let totalOutputTokens = 0;
  let hasUsage = false;
  let startTimestamp;
  let endTimestamp;
  const toolCallsInProgress = /* @__PURE__ */ new Map();
  const lines = eventsJsonl.split("\n").filter((l) => l.trim().length > 0);
  for (const line of lines) {
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    const eventType = event.type;
    if (!eventType) continue;
    const data = event.data ?? {};
    switch (eventType) {
      case "session.start": {
        meta.sessionId = String(data.sessionId ?? "");
        const ctx = data.context;
        meta.cwd = String(ctx?.cwd ?? "");
        meta.repository = ctx?.repository ? String(ctx.repository) : void 0;
        meta.branch = ctx?.branch ? String(ctx.branch) : void 0;
        const ts = event.timestamp ?? data.startTime;
        meta.startedAt = ts ? String(ts) : void 0;
        startTimestamp = ts ? String(ts) : void 0;
        break;
      }
      case "user.message": {
        messages.push({
          role: "user",
          content: data.content != null ? String(data.content) : ""
        });
        break;
      }
      case "assistant.message": {
        const toolRequests = data.toolRequests;
        const toolCalls = (toolRequests ?? []).map(
          (req) => normalizeToolCall("copilot-events", {
            tool: String(req.name ?? req.toolName ?? ""),
            input: req.arguments,
            id: req.toolCallId ? String(req.toolCallId) : void 0
          })
        );
        messages.push({
          role: "assistant",
          content: data.content != null ? String(data.content) : void 0,
          toolCalls: toolCalls.length > 0 ? toolCalls : void 0
        });
        break;
      }
      case "skill.invoked": {
        const skillName = String(data.name ?? "");
        messages.push({
          role: "assistant",
          toolCalls: [
            {
              tool: "Skill",
              input: { skill: skillName }
            }
          ]
        });
        break;
      }
      case "tool.execution_start": {
        const toolCallId = String(data.toolCallId ?? "");
        if (toolCallId) {
          toolCallsInProgress.set(toolCallId, {
            toolName: String(data.toolName ?? ""),
            input: data.arguments,
            toolCallId
          });
        }
        break;
      }
      case "tool.execution_complete": {
        const toolCallId = String(data.toolCallId ?? "");
        const started = toolCallsInProgress.get(toolCallId);
        if (started) {
          toolCallsInProgress.delete(toolCallId);
          messages.push({
            role: "assistant",
            toolCalls: [
              normalizeToolCall("copilot-events", {
                tool: started.toolName,
                input: started.input,
                output: data.result,
                id: toolCallId
              })
            ]
          });
        }
        break;
      }
      case "session.shutdown": {
        endTimestamp = event.timestamp ? String(event.timestamp) : void 0;
        const modelMetrics = data.modelMetrics;
        if (modelMetrics) {
          for (const metrics of Object.values(modelMetrics)) {
            if (metrics.usage) {
              hasUsage = true;
              totalInputTokens += Number(metrics.usage.inputTokens ?? 0);
              totalOutputTokens += Number(metrics.usage.outputTokens ?? 0);
            }
          }
        }
        const currentModel = data.currentModel;
        if (currentModel && !meta.model) {
          meta.model = String(currentModel);
        }
        break;
      }
    }
  }
  let durationMs;
  if (startTimestamp && endTimestamp) {
    durationMs = new Date(endTimestamp).getTime() - new Date(startTimestamp).getTime();
  }
  return {
    messages,
    meta,
    tokenUsage: hasUsage ? { input: totalInputTokens, output: totalOutputTokens } : void 0,
    durationMs
  };
}
function createAgentKernel() {
  return { status: "stub" };
}

export {
  TRACE_SESSION_SCHEMA_VERSION,
  traceEnvelopeToTraceSessionResponse,
  buildTraceSpanTree,
  normalizeTraceArtifactToTraceSessionResponse,
  transpileEvalYaml,
  transpileEvalYamlFile,
  getOutputFilenames,
  prepareEvalWorkspace,
  defineConfig,
  loadTsConfig,
  generateRubrics,
  normalizeResultsConfig,
  resolveResultsRepoUrl,
  getResultsRepoLocalPaths,
  ensureResultsRepoClone,
  getResultsRepoStatus,
  buildResultsCompareUrl,
  getResultsRepoSyncStatus,
  syncResultsRepo,
  syncResultsRepoForProject,
  confirmResultsMergeAndPull,
  checkoutResultsRepoBranch,
  prepareResultsRepoBranch,
  stageResultsArtifacts,
  resolveResultsRepoRunsDir,
  directorySizeBytes,
  commitAndPushResultsBranch,
  pushResultsRepoBranch,
  createDraftResultsPr,
  directPushResults,
  directPushResultsWithDetails,
  readGitResultArtifact,
  buildWipBranchName,
  setupWipWorktree,
  pushWipCheckpoint,
  deleteWipBranch,
  resolveGitResultsIndexCacheFile,
  resolveGitRunsRefCommit,
  listGitRunsCached,
  listGitRuns,
  materializeGitRun,
  syncProject,
  syncProjects,
  trimBaselineResult,
  RunBudgetTracker,
  parseEnvOutput,
  runBeforeSessionHook,
  parseShellExportsEnv,
  parseJsonEnv,
  loadEnvPathFiles,
  runEnvFromEntries,
  parseClaudeSession,
  parseCodexSession,
  discoverCodexSessions,
  discoverClaudeSessions,
  TranscriptProvider,
  parseCopilotEvents,
  createAgentKernel
};
//# sourceMappingURL=chunk-LXBI3SPX.js.map