import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
import {
  Mutex,
  RESULT_INDEX_FILENAME as RESULT_INDEX_FILENAME2,
  RUN_INTERNAL_DIRNAME,
  TARGET_FILE_CANDIDATES,
  buildDefaultRunDir,
  buildDefaultRunDirFromName,
  c,
  confirmRemoteResultsMerge,
  createRunDirName,
  detectFileType,
  discoverEvalFiles,
  discoverTargetsFile,
  enforceRequiredVersion,
  ensureRemoteRunAvailable,
  findRepoRoot,
  findRunById,
  formatCost,
  formatDuration,
  formatNumber,
  formatScore,
  formatSize,
  getRemoteResultsStatus,
  getTraceSpans,
  getTraceSummary,
  isRemoteRunId,
  isReservedResultsNamespace,
  isRunManifestPath,
  listMergedResultFiles,
  listResultFiles,
  loadEnvFromHierarchy,
  loadLightweightResults,
  loadManifestResults,
  loadNormalizedResultsConfig,
  loadResultFile,
  loadRunCache,
  maybeAutoExportRunArtifacts,
  normalizeExperimentName,
  normalizeTagMap,
  package_default,
  padLeft,
  padRight,
  parseResultManifest,
  readAgentSkillsEvalsFile,
  readTestSuiteTarget,
  relativeRunPathFromCwd,
  resolveEvalPaths,
  resolveExistingRunPrimaryPath,
  resolveResultSourcePath,
  resolveRunCacheFile,
  resolveRunManifestPath,
  runEvalCommand,
  selectMultipleTargets,
  selectTarget,
  syncRemoteResults,
  toTraceSummary,
  validateCasesFile,
  validateConfigFile,
  validateEvalFile,
  validateFileReferences,
  validateTargetsFile,
  validateTypeScriptEvalConfigFile,
  validateWorkspacePaths
} from "./chunk-LKGARI3W.js";
import {
  materializeEvalBundle,
  writeArtifactsFromResults as writeArtifactsFromResults2
} from "./chunk-RKE7SSET.js";
import {
  discoverClaudeSessions,
  discoverCodexSessions,
  getOutputFilenames,
  loadEnvPathFiles,
  normalizeTraceArtifactToTraceSessionResponse,
  parseClaudeSession,
  parseCodexSession,
  parseCopilotEvents,
  prepareEvalWorkspace,
  readGitResultArtifact,
  runBeforeSessionHook,
  runEnvFromEntries,
  syncProjects,
  transpileEvalYamlFile,
  trimBaselineResult
} from "./chunk-LXBI3SPX.js";
import {
  AGENTV_RESULTS_ARTIFACTS_REF,
  DEFAULT_CATEGORY,
  DEFAULT_THRESHOLD,
  EXECUTION_TRACE_SCHEMA_VERSION,
  LEGACY_METRICS_SCHEMA_VERSION,
  METRICS_SCHEMA_VERSION,
  RESULT_INDEX_FILENAME,
  addProject,
  aggregateRunDir,
  buildResultIndexArtifact,
  buildRunSummaryArtifact,
  buildTestTargetKey,
  buildTraceEnvelopeFromEvaluationResult,
  buildTraceFromMessages,
  createBuiltinRegistry,
  deriveCategory,
  discoverCopilotSessions,
  executeScript,
  externalTraceMetadataFromRecord,
  external_exports,
  getAgentvConfigDir,
  getLocalConfigPath,
  getProject,
  gradePreparedEvalCase,
  isTypeScriptEvalConfigFileName,
  listTargetNames,
  loadConfig,
  loadProjectRegistry,
  loadTestSuite,
  mergeConfigObjects,
  normalizeCategoryPath,
  normalizeMetricsArtifactWire,
  normalizeResultRow,
  omitExternalTraceMetadataKeys,
  parseYamlValue,
  readTargetDefinitions,
  readTraceEnvelopeReplayRecords,
  readTranscriptFile,
  readTranscriptJsonl,
  removeProject,
  runContainsAllAssertion,
  runContainsAnyAssertion,
  runContainsAssertion,
  runEndsWithAssertion,
  runEqualsAssertion,
  runIcontainsAllAssertion,
  runIcontainsAnyAssertion,
  runIcontainsAssertion,
  runIsJsonAssertion,
  runRegexAssertion,
  runStartsWithAssertion,
  toCamelCaseDeep,
  toExternalTraceMetadataWire,
  toSnakeCaseDeep,
  toTraceEnvelopeWire,
  toTranscriptJsonLines,
  touchProject,
  traceEnvelopeToTraceSummary,
  traceEnvelopeToTranscriptMessages,
  traceFromTranscriptJsonLines,
  writeArtifactsFromResults
} from "./chunk-ELCJ23K4.js";
import {
  __commonJS,
  __require,
  __toESM
} from "./chunk-QMRVH5ZP.js";

// ../../node_modules/.bun/didyoumean@1.2.2/node_modules/didyoumean/didYouMean-1.2.1.js
var require_didYouMean_1_2_1 = __commonJS({
  "../../node_modules/.bun/didyoumean@1.2.2/node_modules/didyoumean/didYouMean-1.2.1.js"(exports, module) {
    "use strict";
    (function() {
      "use strict";
      function didYouMean2(str, list, key) {
        if (!str) return null;
        if (!didYouMean2.caseSensitive) {
          str = str.toLowerCase();
        }
        var thresholdRelative = didYouMean2.threshold === null ? null : didYouMean2.threshold * str.length, thresholdAbsolute = didYouMean2.thresholdAbsolute, winningVal;
        if (thresholdRelative !== null && thresholdAbsolute !== null) winningVal = Math.min(thresholdRelative, thresholdAbsolute);
        else if (thresholdRelative !== null) winningVal = thresholdRelative;
        else if (thresholdAbsolute !== null) winningVal = thresholdAbsolute;
        else winningVal = null;
        var winner, candidate, testCandidate, val, i, len = list.length;
        for (i = 0; i < len; i++) {
          candidate = list[i];
          if (key) {
            candidate = candidate[key];
          }
          if (!candidate) {
            continue;
          }
          if (!didYouMean2.caseSensitive) {
            testCandidate = candidate.toLowerCase();
          } else {
            testCandidate = candidate;
          }
          val = getEditDistance(str, testCandidate, winningVal);
          if (winningVal === null || val < winningVal) {
            winningVal = val;
            if (key && didYouMean2.returnWinningObject) winner = list[i];
            else winner = candidate;
            if (didYouMean2.returnFirstMatch) return winner;
          }
        }
        return winner || didYouMean2.nullResultValue;
      }
      didYouMean2.threshold = 0.4;
      didYouMean2.thresholdAbsolute = 20;
      didYouMean2.caseSensitive = false;
      didYouMean2.nullResultValue = null;
      didYouMean2.returnWinningObject = null;
      didYouMean2.returnFirstMatch = false;
      if (typeof module !== "undefined" && module.exports) {
        module.exports = didYouMean2;
      } else {
        window.didYouMean = didYouMean2;
      }
      var MAX_INT = Math.pow(2, 32) - 1;
      function getEditDistance(a, b, max) {
        max = max || max === 0 ? max : MAX_INT;
        var lena = a.length;
        var lenb = b.length;
        if (lena === 0) return Math.min(max + 1, lenb);
        if (lenb === 0) return Math.min(max + 1, lena);
        if (Math.abs(lena - lenb) > max) return max + 1;
        var matrix = [], i, j, colMin, minJ, maxJ;
        for (i = 0; i <= lenb; i++) {
          matrix[i] = [i];
        }
        for (j = 0; j <= lena; j++) {
          matrix[0][j] = j;
        }
        for (i = 1; i <= lenb; i++) {
          colMin = MAX_INT;
          minJ = 1;
          if (i > max) minJ = i - max;
          maxJ = lenb + 1;
          if (maxJ > max + i) maxJ = max + i;
          for (j = 1; j <= lena; j++) {
            if (j < minJ || j > maxJ) {
              matrix[i][j] = max + 1;
            } else {
              if (b.charAt(i - 1) === a.charAt(j - 1)) {
                matrix[i][j] = matrix[i - 1][j - 1];
              } else {
                matrix[i][j] = Math.min(
                  matrix[i - 1][j - 1] + 1,
                  // Substitute
                  Math.min(
                    matrix[i][j - 1] + 1,
                    // Insert
                    matrix[i - 1][j] + 1
                  )
                );
              }
            }
            if (matrix[i][j] < colMin) colMin = matrix[i][j];
          }
          if (colMin > max) return max + 1;
        }
        return matrix[lenb][lena];
      }
    })();
  }
});

// ../../node_modules/.bun/ms@2.1.3/node_modules/ms/index.js
var require_ms = __commonJS({
  "../../node_modules/.bun/ms@2.1.3/node_modules/ms/index.js"(exports, module) {
    "use strict";
    var s = 1e3;
    var m = s * 60;
    var h = m * 60;
    var d = h * 24;
    var w = d * 7;
    var y = d * 365.25;
    module.exports = function(val, options) {
      options = options || {};
      var type = typeof val;
      if (type === "string" && val.length > 0) {
        return parse3(val);
      } else if (type === "number" && isFinite(val)) {
        return options.long ? fmtLong(val) : fmtShort(val);
      }
      throw new Error(
        "val is not a non-empty string or a valid number. val=" + JSON.stringify(val)
      );
    };
    function parse3(str) {
      str = String(str);
      if (str.length > 100) {
        return;
      }
      var match = /^(-?(?:\d+)?\.?\d+) *(milliseconds?|msecs?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w|years?|yrs?|y)?$/i.exec(
        str
      );
      if (!match) {
        return;
      }
      var n = parseFloat(match[1]);
      var type = (match[2] || "ms").toLowerCase();
      switch (type) {
        case "years":
        case "year":
        case "yrs":
        case "yr":
        case "y":
          return n * y;
        case "weeks":
        case "week":
        case "w":
          return n * w;
        case "days":
        case "day":
        case "d":
          return n * d;
        case "hours":
        case "hour":
        case "hrs":
        case "hr":
        case "h":
          return n * h;
        case "minutes":
        case "minute":
        case "mins":
        case "min":
        case "m":
          return n * m;
        case "seconds":
        case "second":
        case "secs":
        case "sec":
        case "s":
          return n * s;
        case "milliseconds":
        case "millisecond":
        case "msecs":
        case "msec":
        case "ms":
          return n;
        default:
          return void 0;
      }
    }
    function fmtShort(ms) {
      var msAbs = Math.abs(ms);
      if (msAbs >= d) {
        return Math.round(ms / d) + "d";
      }
      if (msAbs >= h) {
        return Math.round(ms / h) + "h";
      }
      if (msAbs >= m) {
        return Math.round(ms / m) + "m";
      }
      if (msAbs >= s) {
        return Math.round(ms / s) + "s";
      }
      return ms + "ms";
    }
    function fmtLong(ms) {
      var msAbs = Math.abs(ms);
      if (msAbs >= d) {
        return plural(ms, msAbs, d, "day");
      }
      if (msAbs >= h) {
        return plural(ms, msAbs, h, "hour");
      }
      if (msAbs >= m) {
        return plural(ms, msAbs, m, "minute");
      }
      if (msAbs >= s) {
        return plural(ms, msAbs, s, "second");
      }
      return ms + " ms";
    }
    function plural(ms, msAbs, n, name) {
      var isPlural = msAbs >= n * 1.5;
      return Math.round(ms / n) + " " + name + (isPlural ? "s" : "");
    }
  }
});

// ../../node_modules/.bun/debug@4.4.3/node_modules/debug/src/common.js
var require_common = __commonJS({
  "../../node_modules/.bun/debug@4.4.3/node_modules/debug/src/common.js"(exports, module) {
    "use strict";
    function setup(env2) {
      createDebug.debug = createDebug;
      createDebug.default = createDebug;
      createDebug.coerce = coerce;
      createDebug.disable = disable;
      createDebug.enable = enable;
      createDebug.enabled = enabled;
      createDebug.humanize = require_ms();
      createDebug.destroy = destroy;
      Object.keys(env2).forEach((key) => {
        createDebug[key] = env2[key];
      });
      createDebug.names = [];
      createDebug.skips = [];
      createDebug.formatters = {};
      function selectColor(namespace) {
        let hash = 0;
        for (let i = 0; i < namespace.length; i++) {
          hash = (hash << 5) - hash + namespace.charCodeAt(i);
          hash |= 0;
        }
        return createDebug.colors[Math.abs(hash) % createDebug.colors.length];
      }
      createDebug.selectColor = selectColor;
      function createDebug(namespace) {
        let prevTime;
        let enableOverride = null;
        let namespacesCache;
        let enabledCache;
        function debug2(...args) {
          if (!debug2.enabled) {
            return;
          }
          const self = debug2;
          const curr = Number(/* @__PURE__ */ new Date());
          const ms = curr - (prevTime || curr);
          self.diff = ms;
          self.prev = prevTime;
          self.curr = curr;
          prevTime = curr;
          args[0] = createDebug.coerce(args[0]);
          if (typeof args[0] !== "string") {
            args.unshift("%O");
          }
          let index = 0;
          args[0] = args[0].replace(/%([a-zA-Z%])/g, (match, format) => {
            if (match === "%%") {
              return "%";
            }
            index++;
            const formatter = createDebug.formatters[format];
            if (typeof formatter === "function") {
              const val = args[index];
              match = formatter.call(self, val);
              args.splice(index, 1);
              index--;
            }
            return match;
          });
          createDebug.formatArgs.call(self, args);
          const logFn = self.log || createDebug.log;
          logFn.apply(self, args);
        }
        debug2.namespace = namespace;
        debug2.useColors = createDebug.useColors();
        debug2.color = createDebug.selectColor(namespace);
        debug2.extend = extend;
        debug2.destroy = createDebug.destroy;
        Object.defineProperty(debug2, "enabled", {
          enumerable: true,
          configurable: false,
          get: () => {
            if (enableOverride !== null) {
              return enableOverride;
            }
            if (namespacesCache !== createDebug.namespaces) {
              namespacesCache = createDebug.namespaces;
              enabledCache = createDebug.enabled(namespace);
            }
            return enabledCache;
          },
          set: (v) => {
            enableOverride = v;
          }
        });
        if (typeof createDebug.init === "function") {
          createDebug.init(debug2);
        }
        return debug2;
      }
      function extend(namespace, delimiter) {
        const newDebug = createDebug(this.namespace + (typeof delimiter === "undefined" ? ":" : delimiter) + namespace);
        newDebug.log = this.log;
        return newDebug;
      }
      function enable(namespaces) {
        createDebug.save(namespaces);
        createDebug.namespaces = namespaces;
        createDebug.names = [];
        createDebug.skips = [];
        const split = (typeof namespaces === "string" ? namespaces : "").trim().replace(/\s+/g, ",").split(",").filter(Boolean);
        for (const ns of split) {
          if (ns[0] === "-") {
            createDebug.skips.push(ns.slice(1));
          } else {
            createDebug.names.push(ns);
          }
        }
      }
      function matchesTemplate(search, template) {
        let searchIndex = 0;
        let templateIndex = 0;
        let starIndex = -1;
        let matchIndex = 0;
        while (searchIndex < search.length) {
          if (templateIndex < template.length && (template[templateIndex] === search[searchIndex] || template[templateIndex] === "*")) {
            if (template[templateIndex] === "*") {
              starIndex = templateIndex;
              matchIndex = searchIndex;
              templateIndex++;
            } else {
              searchIndex++;
              templateIndex++;
            }
          } else if (starIndex !== -1) {
            templateIndex = starIndex + 1;
            matchIndex++;
            searchIndex = matchIndex;
          } else {
            return false;
          }
        }
        while (templateIndex < template.length && template[templateIndex] === "*") {
          templateIndex++;
        }
        return templateIndex === template.length;
      }
      function disable() {
        const namespaces = [
          ...createDebug.names,
          ...createDebug.skips.map((namespace) => "-" + namespace)
        ].join(",");
        createDebug.enable("");
        return namespaces;
      }
      function enabled(name) {
        for (const skip of createDebug.skips) {
          if (matchesTemplate(name, skip)) {
            return false;
          }
        }
        for (const ns of createDebug.names) {
          if (matchesTemplate(name, ns)) {
            return true;
          }
        }
        return false;
      }
      function coerce(val) {
        if (val instanceof Error) {
          return val.stack || val.message;
        }
        return val;
      }
      function destroy() {
        console.warn("Instance method `debug.destroy()` is deprecated and no longer does anything. It will be removed in the next major version of `debug`.");
      }
      createDebug.enable(createDebug.load());
      return createDebug;
    }
    module.exports = setup;
  }
});

// ../../node_modules/.bun/debug@4.4.3/node_modules/debug/src/browser.js
var require_browser = __commonJS({
  "../../node_modules/.bun/debug@4.4.3/node_modules/debug/src/browser.js"(exports, module) {
    "use strict";
    exports.formatArgs = formatArgs;
    exports.save = save;
    exports.load = load;
    exports.useColors = useColors;
    exports.storage = localstorage();
    exports.destroy = /* @__PURE__ */ (() => {
      let warned = false;
      return () => {
        if (!warned) {
          warned = true;
          console.warn("Instance method `debug.destroy()` is deprecated and no longer does anything. It will be removed in the next major version of `debug`.");
        }
      };
    })();
    exports.colors = [
      "#0000CC",
      "#0000FF",
      "#0033CC",
      "#0033FF",
      "#0066CC",
      "#0066FF",
      "#0099CC",
      "#0099FF",
      "#00CC00",
      "#00CC33",
      "#00CC66",
      "#00CC99",
      "#00CCCC",
      "#00CCFF",
      "#3300CC",
      "#3300FF",
      "#3333CC",
      "#3333FF",
      "#3366CC",
      "#3366FF",
      "#3399CC",
      "#3399FF",
      "#33CC00",
      "#33CC33",
      "#33CC66",
      "#33CC99",
      "#33CCCC",
      "#33CCFF",
      "#6600CC",
      "#6600FF",
      "#6633CC",
      "#6633FF",
      "#66CC00",
      "#66CC33",
      "#9900CC",
      "#9900FF",
      "#9933CC",
      "#9933FF",
      "#99CC00",
      "#99CC33",
      "#CC0000",
      "#CC0033",
      "#CC0066",
      "#CC0099",
      "#CC00CC",
      "#CC00FF",
      "#CC3300",
      "#CC3333",
      "#CC3366",
      "#CC3399",
      "#CC33CC",
      "#CC33FF",
      "#CC6600",
      "#CC6633",
      "#CC9900",
      "#CC9933",
      "#CCCC00",
      "#CCCC33",
      "#FF0000",
      "#FF0033",
      "#FF0066",
      "#FF0099",
      "#FF00CC",
      "#FF00FF",
      "#FF3300",
      "#FF3333",
      "#FF3366",
      "#FF3399",
      "#FF33CC",
      "#FF33FF",
      "#FF6600",
      "#FF6633",
      "#FF9900",
      "#FF9933",
      "#FFCC00",
      "#FFCC33"
    ];
    function useColors() {
      if (typeof window !== "undefined" && window.process && (window.process.type === "renderer" || window.process.__nwjs)) {
        return true;
      }
      if (typeof navigator !== "undefined" && navigator.userAgent && navigator.userAgent.toLowerCase().match(/(edge|trident)\/(\d+)/)) {
        return false;
      }
      let m;
      return typeof document !== "undefined" && document.documentElement && document.documentElement.style && document.documentElement.style.WebkitAppearance || // Is firebug? http://stackoverflow.com/a/398120/376773
      typeof window !== "undefined" && window.console && (window.console.firebug || window.console.exception && window.console.table) || // Is firefox >= v31?
      // https://developer.mozilla.org/en-US/docs/Tools/Web_Console#Styling_messages
      typeof navigator !== "undefined" && navigator.userAgent && (m = navigator.userAgent.toLowerCase().match(/firefox\/(\d+)/)) && parseInt(m[1], 10) >= 31 || // Double check webkit in userAgent just in case we are in a worker
      typeof navigator !== "undefined" && navigator.userAgent && navigator.userAgent.toLowerCase().match(/applewebkit\/(\d+)/);
    }
    function formatArgs(args) {
      args[0] = (this.useColors ? "%c" : "") + this.namespace + (this.useColors ? " %c" : " ") + args[0] + (this.useColors ? "%c " : " ") + "+" + module.exports.humanize(this.diff);
      if (!this.useColors) {
        return;
      }
      const c4 = "color: " + this.color;
      args.splice(1, 0, c4, "color: inherit");
      let index = 0;
      let lastC = 0;
      args[0].replace(/%[a-zA-Z%]/g, (match) => {
        if (match === "%%") {
          return;
        }
        index++;
        if (match === "%c") {
          lastC = index;
        }
      });
      args.splice(lastC, 0, c4);
    }
    exports.log = console.debug || console.log || (() => {
    });
    function save(namespaces) {
      try {
        if (namespaces) {
          exports.storage.setItem("debug", namespaces);
        } else {
          exports.storage.removeItem("debug");
        }
      } catch (error) {
      }
    }
    function load() {
      let r;
      try {
        r = exports.storage.getItem("debug") || exports.storage.getItem("DEBUG");
      } catch (error) {
      }
      if (!r && typeof process !== "undefined" && "env" in process) {
        r = process.env.DEBUG;
      }
      return r;
    }
    function localstorage() {
      try {
        return localStorage;
      } catch (error) {
      }
    }
    module.exports = require_common()(exports);
    var { formatters } = module.exports;
    formatters.j = function(v) {
      try {
        return JSON.stringify(v);
      } catch (error) {
        return "[UnexpectedJSONParseError]: " + error.message;
      }
    };
  }
});

// ../../node_modules/.bun/debug@4.4.3/node_modules/debug/src/node.js
var require_node = __commonJS({
  "../../node_modules/.bun/debug@4.4.3/node_modules/debug/src/node.js"(exports, module) {
    "use strict";
    var tty2 = __require("tty");
    var util = __require("util");
    exports.init = init;
    exports.log = log;
    exports.formatArgs = formatArgs;
    exports.save = save;
    exports.load = load;
    exports.useColors = useColors;
    exports.destroy = util.deprecate(
      () => {
      },
      "Instance method `debug.destroy()` is deprecated and no longer does anything. It will be removed in the next major version of `debug`."
    );
    exports.colors = [6, 2, 3, 4, 5, 1];
    try {
      const supportsColor2 = __require("supports-color");
      if (supportsColor2 && (supportsColor2.stderr || supportsColor2).level >= 2) {
        exports.colors = [
          20,
          21,
          26,
          27,
          32,
          33,
          38,
          39,
          40,
          41,
          42,
          43,
          44,
          45,
          56,
          57,
          62,
          63,
          68,
          69,
          74,
          75,
          76,
          77,
          78,
          79,
          80,
          81,
          92,
          93,
          98,
          99,
          112,
          113,
          128,
          129,
          134,
          135,
          148,
          149,
          160,
          161,
          162,
          163,
          164,
          165,
          166,
          167,
          168,
          169,
          170,
          171,
          172,
          173,
          178,
          179,
          184,
          185,
          196,
          197,
          198,
          199,
          200,
          201,
          202,
          203,
          204,
          205,
          206,
          207,
          208,
          209,
          214,
          215,
          220,
          221
        ];
      }
    } catch (error) {
    }
    exports.inspectOpts = Object.keys(process.env).filter((key) => {
      return /^debug_/i.test(key);
    }).reduce((obj, key) => {
      const prop = key.substring(6).toLowerCase().replace(/_([a-z])/g, (_, k) => {
        return k.toUpperCase();
      });
      let val = process.env[key];
      if (/^(yes|on|true|enabled)$/i.test(val)) {
        val = true;
      } else if (/^(no|off|false|disabled)$/i.test(val)) {
        val = false;
      } else if (val === "null") {
        val = null;
      } else {
        val = Number(val);
      }
      obj[prop] = val;
      return obj;
    }, {});
    function useColors() {
      return "colors" in exports.inspectOpts ? Boolean(exports.inspectOpts.colors) : tty2.isatty(process.stderr.fd);
    }
    function formatArgs(args) {
      const { namespace: name, useColors: useColors2 } = this;
      if (useColors2) {
        const c4 = this.color;
        const colorCode = "\x1B[3" + (c4 < 8 ? c4 : "8;5;" + c4);
        const prefix = `  ${colorCode};1m${name} \x1B[0m`;
        args[0] = prefix + args[0].split("\n").join("\n" + prefix);
        args.push(colorCode + "m+" + module.exports.humanize(this.diff) + "\x1B[0m");
      } else {
        args[0] = getDate() + name + " " + args[0];
      }
    }
    function getDate() {
      if (exports.inspectOpts.hideDate) {
        return "";
      }
      return (/* @__PURE__ */ new Date()).toISOString() + " ";
    }
    function log(...args) {
      return process.stderr.write(util.formatWithOptions(exports.inspectOpts, ...args) + "\n");
    }
    function save(namespaces) {
      if (namespaces) {
        process.env.DEBUG = namespaces;
      } else {
        delete process.env.DEBUG;
      }
    }
    function load() {
      return process.env.DEBUG;
    }
    function init(debug2) {
      debug2.inspectOpts = {};
      const keys = Object.keys(exports.inspectOpts);
      for (let i = 0; i < keys.length; i++) {
        debug2.inspectOpts[keys[i]] = exports.inspectOpts[keys[i]];
      }
    }
    module.exports = require_common()(exports);
    var { formatters } = module.exports;
    formatters.o = function(v) {
      this.inspectOpts.colors = this.useColors;
      return util.inspect(v, this.inspectOpts).split("\n").map((str) => str.trim()).join(" ");
    };
    formatters.O = function(v) {
      this.inspectOpts.colors = this.useColors;
      return util.inspect(v, this.inspectOpts);
    };
  }
});

// ../../node_modules/.bun/debug@4.4.3/node_modules/debug/src/index.js
var require_src = __commonJS({
  "../../node_modules/.bun/debug@4.4.3/node_modules/debug/src/index.js"(exports, module) {
    "use strict";
    if (typeof process === "undefined" || process.type === "renderer" || process.browser === true || process.__nwjs) {
      module.exports = require_browser();
    } else {
      module.exports = require_node();
    }
  }
});

// src/index.ts
import path32 from "node:path";

// ../../node_modules/.bun/chalk@5.6.2/node_modules/chalk/source/vendor/ansi-styles/index.js
var ANSI_BACKGROUND_OFFSET = 10;
var wrapAnsi16 = (offset = 0) => (code) => `\x1B[${code + offset}m`;
var wrapAnsi256 = (offset = 0) => (code) => `\x1B[${38 + offset};5;${code}m`;
var wrapAnsi16m = (offset = 0) => (red, green, blue) => `\x1B[${38 + offset};2;${red};${green};${blue}m`;
var styles = {
  modifier: {
    reset: [0, 0],
    // 21 isn't widely supported and 22 does the same thing
    bold: [1, 22],
    dim: [2, 22],
    italic: [3, 23],
    underline: [4, 24],
    overline: [53, 55],
    inverse: [7, 27],
    hidden: [8, 28],
    strikethrough: [9, 29]
  },
  color: {
    black: [30, 39],
    red: [31, 39],
    green: [32, 39],
    yellow: [33, 39],
    blue: [34, 39],
    magenta: [35, 39],
    cyan: [36, 39],
    white: [37, 39],
    // Bright color
    blackBright: [90, 39],
    gray: [90, 39],
    // Alias of `blackBright`
    grey: [90, 39],
    // Alias of `blackBright`
    redBright: [91, 39],
    greenBright: [92, 39],
    yellowBright: [93, 39],
    blueBright: [94, 39],
    magentaBright: [95, 39],
    cyanBright: [96, 39],
    whiteBright: [97, 39]
  },
  bgColor: {
    bgBlack: [40, 49],
    bgRed: [41, 49],
    bgGreen: [42, 49],
    bgYellow: [43, 49],
    bgBlue: [44, 49],
    bgMagenta: [45, 49],
    bgCyan: [46, 49],
    bgWhite: [47, 49],
    // Bright color
    bgBlackBright: [100, 49],
    bgGray: [100, 49],
    // Alias of `bgBlackBright`
    bgGrey: [100, 49],
    // Alias of `bgBlackBright`
    bgRedBright: [101, 49],
    bgGreenBright: [102, 49],
    bgYellowBright: [103, 49],
    bgBlueBright: [104, 49],
    bgMagentaBright: [105, 49],
    bgCyanBright: [106, 49],
    bgWhiteBright: [107, 49]
  }
};
var modifierNames = Object.keys(styles.modifier);
var foregroundColorNames = Object.keys(styles.color);
var backgroundColorNames = Object.keys(styles.bgColor);
var colorNames = [...foregroundColorNames, ...backgroundColorNames];
function assembleStyles() {
  const codes = /* @__PURE__ */ new Map();
  for (const [groupName, group] of Object.entries(styles)) {
    for (const [styleName, style] of Object.entries(group)) {
      styles[styleName] = {
        open: `\x1B[${style[0]}m`,
        close: `\x1B[${style[1]}m`
      };
      group[styleName] = styles[styleName];
      codes.set(style[0], style[1]);
    }
    Object.defineProperty(styles, groupName, {
      value: group,
      enumerable: false
    });
  }
  Object.defineProperty(styles, "codes", {
    value: codes,
    enumerable: false
  });
  styles.color.close = "\x1B[39m";
  styles.bgColor.close = "\x1B[49m";
  styles.color.ansi = wrapAnsi16();
  styles.color.ansi256 = wrapAnsi256();
  styles.color.ansi16m = wrapAnsi16m();
  styles.bgColor.ansi = wrapAnsi16(ANSI_BACKGROUND_OFFSET);
  styles.bgColor.ansi256 = wrapAnsi256(ANSI_BACKGROUND_OFFSET);
  styles.bgColor.ansi16m = wrapAnsi16m(ANSI_BACKGROUND_OFFSET);
  Object.defineProperties(styles, {
    rgbToAnsi256: {
      value(red, green, blue) {
        if (red === green && green === blue) {
          if (red < 8) {
            return 16;
          }
          if (red > 248) {
            return 231;
          }
          return Math.round((red - 8) / 247 * 24) + 232;
        }
        return 16 + 36 * Math.round(red / 255 * 5) + 6 * Math.round(green / 255 * 5) + Math.round(blue / 255 * 5);
      },
      enumerable: false
    },
    hexToRgb: {
      value(hex) {
        const matches = /[a-f\d]{6}|[a-f\d]{3}/i.exec(hex.toString(16));
        if (!matches) {
          return [0, 0, 0];
        }
        let [colorString] = matches;
        if (colorString.length === 3) {
          colorString = [...colorString].map((character) => character + character).join("");
        }
        const integer = Number.parseInt(colorString, 16);
        return [
          /* eslint-disable no-bitwise */
          integer >> 16 & 255,
          integer >> 8 & 255,
          integer & 255
          /* eslint-enable no-bitwise */
        ];
      },
      enumerable: false
    },
    hexToAnsi256: {
      value: (hex) => styles.rgbToAnsi256(...styles.hexToRgb(hex)),
      enumerable: false
    },
    ansi256ToAnsi: {
      value(code) {
        if (code < 8) {
          return 30 + code;
        }
        if (code < 16) {
          return 90 + (code - 8);
        }
        let red;
        let green;
        let blue;
        if (code >= 232) {
          red = ((code - 232) * 10 + 8) / 255;
          green = red;
          blue = red;
        } else {
          code -= 16;
          const remainder = code % 36;
          red = Math.floor(code / 36) / 5;
          green = Math.floor(remainder / 6) / 5;
          blue = remainder % 6 / 5;
        }
        const value = Math.max(red, green, blue) * 2;
        if (value === 0) {
          return 30;
        }
        let result = 30 + (Math.round(blue) << 2 | Math.round(green) << 1 | Math.round(red));
        if (value === 2) {
          result += 60;
        }
        return result;
      },
      enumerable: false
    },
    rgbToAnsi: {
      value: (red, green, blue) => styles.ansi256ToAnsi(styles.rgbToAnsi256(red, green, blue)),
      enumerable: false
    },
    hexToAnsi: {
      value: (hex) => styles.ansi256ToAnsi(styles.hexToAnsi256(hex)),
      enumerable: false
    }
  });
  return styles;
}
var ansiStyles = assembleStyles();
var ansi_styles_default = ansiStyles;

// ../../node_modules/.bun/chalk@5.6.2/node_modules/chalk/source/vendor/supports-color/index.js
import process2 from "node:process";
import os from "node:os";
import tty from "node:tty";
function hasFlag(flag2, argv = globalThis.Deno ? globalThis.Deno.args : process2.argv) {
  const prefix = flag2.startsWith("-") ? "" : flag2.length === 1 ? "-" : "--";
  const position = argv.indexOf(prefix + flag2);
  const terminatorPosition = argv.indexOf("--");
  return position !== -1 && (terminatorPosition === -1 || position < terminatorPosition);
}
var { env } = process2;
var flagForceColor;
if (hasFlag("no-color") || hasFlag("no-colors") || hasFlag("color=false") || hasFlag("color=never")) {
  flagForceColor = 0;
} else if (hasFlag("color") || hasFlag("colors") || hasFlag("color=true") || hasFlag("color=always")) {
  flagForceColor = 1;
}
function envForceColor() {
  if ("FORCE_COLOR" in env) {
    if (env.FORCE_COLOR === "true") {
      return 1;
    }
    if (env.FORCE_COLOR === "false") {
      return 0;
    }
    return env.FORCE_COLOR.length === 0 ? 1 : Math.min(Number.parseInt(env.FORCE_COLOR, 10), 3);
  }
}
function translateLevel(level) {
  if (level === 0) {
    return false;
  }
  return {
    level,
    hasBasic: true,
    has256: level >= 2,
    has16m: level >= 3
  };
}
function _supportsColor(haveStream, { streamIsTTY, sniffFlags = true } = {}) {
  const noFlagForceColor = envForceColor();
  if (noFlagForceColor !== void 0) {
    flagForceColor = noFlagForceColor;
  }
  const forceColor = sniffFlags ? flagForceColor : noFlagForceColor;
  if (forceColor === 0) {
    return 0;
  }
  if (sniffFlags) {
    if (hasFlag("color=16m") || hasFlag("color=full") || hasFlag("color=truecolor")) {
      return 3;
    }
    if (hasFlag("color=256")) {
      return 2;
    }
  }
  if ("TF_BUILD" in env && "AGENT_NAME" in env) {
    return 1;
  }
  if (haveStream && !streamIsTTY && forceColor === void 0) {
    return 0;
  }
  const min = forceColor || 0;
  if (env.TERM === "dumb") {
    return min;
  }
  if (process2.platform === "win32") {
    const osRelease = os.release().split(".");
    if (Number(osRelease[0]) >= 10 && Number(osRelease[2]) >= 10586) {
      return Number(osRelease[2]) >= 14931 ? 3 : 2;
    }
    return 1;
  }
  if ("CI" in env) {
    if (["GITHUB_ACTIONS", "GITEA_ACTIONS", "CIRCLECI"].some((key) => key in env)) {
      return 3;
    }
    if (["TRAVIS", "APPVEYOR", "GITLAB_CI", "BUILDKITE", "DRONE"].some((sign) => sign in env) || env.CI_NAME === "codeship") {
      return 1;
    }
    return min;
  }
  if ("TEAMCITY_VERSION" in env) {
    return /^(9\.(0*[1-9]\d*)\.|\d{2,}\.)/.test(env.TEAMCITY_VERSION) ? 1 : 0;
  }
  if (env.COLORTERM === "truecolor") {
    return 3;
  }
  if (env.TERM === "xterm-kitty") {
    return 3;
  }
  if (env.TERM === "xterm-ghostty") {
    return 3;
  }
  if (env.TERM === "wezterm") {
    return 3;
  }
  if ("TERM_PROGRAM" in env) {
    const version = Number.parseInt((env.TERM_PROGRAM_VERSION || "").split(".")[0], 10);
    switch (env.TERM_PROGRAM) {
      case "iTerm.app": {
        return version >= 3 ? 3 : 2;
      }
      case "Apple_Terminal": {
        return 2;
      }
    }
  }
  if (/-256(color)?$/i.test(env.TERM)) {
    return 2;
  }
  if (/^screen|^xterm|^vt100|^vt220|^rxvt|color|ansi|cygwin|linux/i.test(env.TERM)) {
    return 1;
  }
  if ("COLORTERM" in env) {
    return 1;
  }
  return min;
}
function createSupportsColor(stream, options = {}) {
  const level = _supportsColor(stream, {
    streamIsTTY: stream && stream.isTTY,
    ...options
  });
  return translateLevel(level);
}
var supportsColor = {
  stdout: createSupportsColor({ isTTY: tty.isatty(1) }),
  stderr: createSupportsColor({ isTTY: tty.isatty(2) })
};
var supports_color_default = supportsColor;

// ../../node_modules/.bun/chalk@5.6.2/node_modules/chalk/source/utilities.js
function stringReplaceAll(string2, substring, replacer) {
  let index = string2.indexOf(substring);
  if (index === -1) {
    return string2;
  }
  const substringLength = substring.length;
  let endIndex = 0;
  let returnValue = "";
  do {
    returnValue += string2.slice(endIndex, index) + substring + replacer;
    endIndex = index + substringLength;
    index = string2.indexOf(substring, endIndex);
  } while (index !== -1);
  returnValue += string2.slice(endIndex);
  return returnValue;
}
function stringEncaseCRLFWithFirstIndex(string2, prefix, postfix, index) {
  let endIndex = 0;
  let returnValue = "";
  do {
    const gotCR = string2[index - 1] === "\r";
    returnValue += string2.slice(endIndex, gotCR ? index - 1 : index) + prefix + (gotCR ? "\r\n" : "\n") + postfix;
    endIndex = index + 1;
    index = string2.indexOf("\n", endIndex);
  } while (index !== -1);
  returnValue += string2.slice(endIndex);
  return returnValue;
}

// ../../node_modules/.bun/chalk@5.6.2/node_modules/chalk/source/index.js
var { stdout: stdoutColor, stderr: stderrColor } = supports_color_default;
var GENERATOR = Symbol("GENERATOR");
var STYLER = Symbol("STYLER");
var IS_EMPTY = Symbol("IS_EMPTY");
var levelMapping = [
  "ansi",
  "ansi",
  "ansi256",
  "ansi16m"
];
var styles2 = /* @__PURE__ */ Object.create(null);
var applyOptions = (object, options = {}) => {
  if (options.level && !(Number.isInteger(options.level) && options.level >= 0 && options.level <= 3)) {
    throw new Error("The `level` option should be an integer from 0 to 3");
  }
  const colorLevel = stdoutColor ? stdoutColor.level : 0;
  object.level = options.level === void 0 ? colorLevel : options.level;
};
var chalkFactory = (options) => {
  const chalk2 = (...strings) => strings.join(" ");
  applyOptions(chalk2, options);
  Object.setPrototypeOf(chalk2, createChalk.prototype);
  return chalk2;
};
function createChalk(options) {
  return chalkFactory(options);
}
Object.setPrototypeOf(createChalk.prototype, Function.prototype);
for (const [styleName, style] of Object.entries(ansi_styles_default)) {
  styles2[styleName] = {
    get() {
      const builder = createBuilder(this, createStyler(style.open, style.close, this[STYLER]), this[IS_EMPTY]);
      Object.defineProperty(this, styleName, { value: builder });
      return builder;
    }
  };
}
styles2.visible = {
  get() {
    const builder = createBuilder(this, this[STYLER], true);
    Object.defineProperty(this, "visible", { value: builder });
    return builder;
  }
};
var getModelAnsi = (model, level, type, ...arguments_) => {
  if (model === "rgb") {
    if (level === "ansi16m") {
      return ansi_styles_default[type].ansi16m(...arguments_);
    }
    if (level === "ansi256") {
      return ansi_styles_default[type].ansi256(ansi_styles_default.rgbToAnsi256(...arguments_));
    }
    return ansi_styles_default[type].ansi(ansi_styles_default.rgbToAnsi(...arguments_));
  }
  if (model === "hex") {
    return getModelAnsi("rgb", level, type, ...ansi_styles_default.hexToRgb(...arguments_));
  }
  return ansi_styles_default[type][model](...arguments_);
};
var usedModels = ["rgb", "hex", "ansi256"];
for (const model of usedModels) {
  styles2[model] = {
    get() {
      const { level } = this;
      return function(...arguments_) {
        const styler = createStyler(getModelAnsi(model, levelMapping[level], "color", ...arguments_), ansi_styles_default.color.close, this[STYLER]);
        return createBuilder(this, styler, this[IS_EMPTY]);
      };
    }
  };
  const bgModel = "bg" + model[0].toUpperCase() + model.slice(1);
  styles2[bgModel] = {
    get() {
      const { level } = this;
      return function(...arguments_) {
        const styler = createStyler(getModelAnsi(model, levelMapping[level], "bgColor", ...arguments_), ansi_styles_default.bgColor.close, this[STYLER]);
        return createBuilder(this, styler, this[IS_EMPTY]);
      };
    }
  };
}
var proto = Object.defineProperties(() => {
}, {
  ...styles2,
  level: {
    enumerable: true,
    get() {
      return this[GENERATOR].level;
    },
    set(level) {
      this[GENERATOR].level = level;
    }
  }
});
var createStyler = (open, close, parent) => {
  let openAll;
  let closeAll;
  if (parent === void 0) {
    openAll = open;
    closeAll = close;
  } else {
    openAll = parent.openAll + open;
    closeAll = close + parent.closeAll;
  }
  return {
    open,
    close,
    openAll,
    closeAll,
    parent
  };
};
var createBuilder = (self, _styler, _isEmpty) => {
  const builder = (...arguments_) => applyStyle(builder, arguments_.length === 1 ? "" + arguments_[0] : arguments_.join(" "));
  Object.setPrototypeOf(builder, proto);
  builder[GENERATOR] = self;
  builder[STYLER] = _styler;
  builder[IS_EMPTY] = _isEmpty;
  return builder;
};
var applyStyle = (self, string2) => {
  if (self.level <= 0 || !string2) {
    return self[IS_EMPTY] ? "" : string2;
  }
  let styler = self[STYLER];
  if (styler === void 0) {
    return string2;
  }
  const { openAll, closeAll } = styler;
  if (string2.includes("\x1B")) {
    while (styler !== void 0) {
      string2 = stringReplaceAll(string2, styler.close, styler.open);
      styler = styler.parent;
    }
  }
  const lfIndex = string2.indexOf("\n");
  if (lfIndex !== -1) {
    string2 = stringEncaseCRLFWithFirstIndex(string2, closeAll, openAll, lfIndex);
  }
  return openAll + string2 + closeAll;
};
Object.defineProperties(createChalk.prototype, styles2);
var chalk = createChalk();
var chalkStderr = createChalk({ level: stderrColor ? stderrColor.level : 0 });
var source_default = chalk;

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/subcommands.js
var import_didyoumean = __toESM(require_didYouMean_1_2_1());

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/Result.js
function ok(value) {
  return { _tag: "ok", value };
}
function err(error) {
  return { _tag: "error", error };
}
function isOk(result) {
  return result._tag === "ok";
}
function isErr(either) {
  return either._tag === "error";
}
async function safeAsync(promise) {
  try {
    const value = await promise;
    return ok(value);
  } catch (e) {
    return err(e);
  }
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/effects.js
var Exit = class {
  constructor(config) {
    this.config = config;
  }
  run() {
    const output = this.output();
    output(this.config.message);
    process.exit(this.config.exitCode);
  }
  dryRun() {
    const { into, message, exitCode } = this.config;
    const coloredExit = source_default.dim(`process exited with status ${exitCode} (${into})`);
    return `${message}

${coloredExit}`;
  }
  output() {
    if (this.config.into === "stderr") {
      return console.error;
    }
    return console.log;
  }
};

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/newparser/findOption.js
function findOption(nodes, opts) {
  const result = [];
  for (const node of nodes) {
    if (node.type === "longOption" && opts.longNames.includes(node.key)) {
      result.push(node);
      continue;
    }
    if (node.type === "shortOptions" && opts.shortNames.length) {
      for (const option2 of node.options) {
        if (opts.shortNames.includes(option2.key)) {
          result.push(option2);
        }
      }
    }
  }
  return result;
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/from.js
function identity() {
  return {
    async from(a) {
      return a;
    }
  };
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/type.js
function typeDef(from) {
  if (typeof from === "function") {
    return {};
  }
  return from;
}
function fromFn(t) {
  if (typeof t === "function") {
    return t;
  }
  return t.from;
}
function extendType(base, nextTypeOrDecodingFunction) {
  const { defaultValue: _defaultValue, onMissing: _onMissing, from: _from, ...t1WithoutDefault } = base;
  const t2Object = typeDef(nextTypeOrDecodingFunction);
  const t2From = fromFn(nextTypeOrDecodingFunction);
  return {
    ...t1WithoutDefault,
    ...t2Object,
    async from(a) {
      const f1Result = await base.from(a);
      return await t2From(f1Result);
    }
  };
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/types.js
var number = {
  async from(str) {
    const decoded = Number.parseFloat(str);
    if (Number.isNaN(decoded)) {
      throw new Error("Not a number");
    }
    return decoded;
  },
  displayName: "number",
  description: "a number"
};
var string = {
  ...identity(),
  description: "a string",
  displayName: "str"
};
var boolean = {
  ...identity(),
  description: "a boolean",
  displayName: "true/false",
  defaultValue() {
    return false;
  }
};
function optional(t) {
  return {
    ...t,
    defaultValue() {
      return void 0;
    }
  };
}
function array(t) {
  return {
    ...t,
    async from(inputs) {
      return Promise.all(inputs.map((input) => t.from(input)));
    }
  };
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/flag.js
var boolean2 = {
  async from(str) {
    if (str === "true")
      return true;
    if (str === "false")
      return false;
    throw new Error(`expected value to be either "true" or "false". got: "${str}"`);
  },
  displayName: "true/false",
  defaultValue: () => false
};
function fullFlag(config) {
  var _a;
  const decoder = extendType(boolean2, config.type);
  return {
    description: (_a = config.description) !== null && _a !== void 0 ? _a : config.type.description,
    helpTopics() {
      var _a2, _b;
      let usage = `--${config.long}`;
      if (config.short) {
        usage += `, -${config.short}`;
      }
      const defaults = [];
      if (config.env) {
        const env2 = process.env[config.env] === void 0 ? "" : `=${source_default.italic(process.env[config.env])}`;
        defaults.push(`env: ${config.env}${env2}`);
      }
      if (config.defaultValue) {
        try {
          const defaultValue = config.defaultValue();
          if (config.defaultValueIsSerializable) {
            defaults.push(`default: ${source_default.italic(defaultValue)}`);
          } else {
            defaults.push("optional");
          }
        } catch (e) {
        }
      } else if (config.type.defaultValue) {
        try {
          const defaultValue = config.type.defaultValue();
          if (config.type.defaultValueIsSerializable) {
            defaults.push(`default: ${source_default.italic(defaultValue)}`);
          } else {
            defaults.push("optional");
          }
        } catch (e) {
        }
      } else if (config.onMissing || config.type.onMissing) {
        defaults.push("optional");
      }
      return [
        {
          category: "flags",
          usage,
          defaults,
          description: (_b = (_a2 = config.description) !== null && _a2 !== void 0 ? _a2 : config.type.description) !== null && _b !== void 0 ? _b : "self explanatory"
        }
      ];
    },
    register(opts) {
      opts.forceFlagLongNames.add(config.long);
      if (config.short) {
        opts.forceFlagShortNames.add(config.short);
      }
    },
    async parse({ nodes, visitedNodes }) {
      var _a2, _b;
      const options = findOption(nodes, {
        longNames: [config.long],
        shortNames: config.short ? [config.short] : []
      }).filter((x) => !visitedNodes.has(x));
      options.forEach((opt) => visitedNodes.add(opt));
      if (options.length > 1) {
        return err({
          errors: [
            {
              nodes: options,
              message: `Expected 1 occurence, got ${options.length}`
            }
          ]
        });
      }
      const valueFromEnv = config.env ? process.env[config.env] : void 0;
      const onMissingFn = config.onMissing || config.type.onMissing;
      let rawValue;
      let envPrefix = "";
      if (options.length === 0 && valueFromEnv !== void 0) {
        rawValue = valueFromEnv;
        envPrefix = `env[${source_default.italic(config.env)}]: `;
      } else if (options.length === 0 && config.defaultValue) {
        try {
          const defaultValue = config.defaultValue();
          return ok(defaultValue);
        } catch (e) {
          const message = `Default value not found for '--${config.long}': ${e.message}`;
          return err({
            errors: [{ message, nodes: [] }]
          });
        }
      } else if (options.length === 0 && onMissingFn) {
        try {
          const missingValue = await onMissingFn();
          return ok(missingValue);
        } catch (e) {
          const message = `Failed to get missing value for '--${config.long}': ${e.message}`;
          return err({
            errors: [{ message, nodes: [] }]
          });
        }
      } else if (options.length === 0 && config.type.defaultValue) {
        try {
          const defaultValue = config.type.defaultValue();
          return ok(defaultValue);
        } catch (e) {
          const message = `Default value not found for '--${config.long}': ${e.message}`;
          return err({
            errors: [{ message, nodes: [] }]
          });
        }
      } else if (options.length === 1) {
        rawValue = (_b = (_a2 = options[0].value) === null || _a2 === void 0 ? void 0 : _a2.node.raw) !== null && _b !== void 0 ? _b : "true";
      } else {
        return err({
          errors: [
            { nodes: [], message: `No value provided for --${config.long}` }
          ]
        });
      }
      const decoded = await safeAsync(decoder.from(rawValue));
      if (isErr(decoded)) {
        return err({
          errors: [
            {
              nodes: options,
              message: envPrefix + decoded.error.message
            }
          ]
        });
      }
      return decoded;
    }
  };
}
function flag(config) {
  return fullFlag({
    type: boolean,
    ...config
  });
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/circuitbreaker.js
var helpFlag = flag({
  long: "help",
  short: "h",
  type: boolean,
  description: "show help"
});
var versionFlag = flag({
  long: "version",
  short: "v",
  type: boolean,
  description: "print the version"
});
function handleCircuitBreaker(context, value, breaker) {
  if (isErr(breaker)) {
    return;
  }
  if (breaker.value === "help") {
    const message = value.printHelp(context);
    throw new Exit({ exitCode: 0, message, into: "stdout" });
  }
  if (breaker.value === "version") {
    const message = value.version || "0.0.0";
    throw new Exit({ exitCode: 0, message, into: "stdout" });
  }
}
function createCircuitBreaker(withVersion) {
  return {
    register(opts) {
      helpFlag.register(opts);
      if (withVersion) {
        versionFlag.register(opts);
      }
    },
    helpTopics() {
      const helpTopics = helpFlag.helpTopics();
      if (withVersion) {
        helpTopics.push(...versionFlag.helpTopics());
      }
      return helpTopics;
    },
    async parse(context) {
      const help = await helpFlag.parse(context);
      const version = withVersion ? await versionFlag.parse(context) : void 0;
      if (isErr(help) || version && isErr(version)) {
        const helpErrors = isErr(help) ? help.error.errors : [];
        const versionErrors = version && isErr(version) ? version.error.errors : [];
        return err({ errors: [...helpErrors, ...versionErrors] });
      }
      if (help.value) {
        return ok("help");
      }
      if (version === null || version === void 0 ? void 0 : version.value) {
        return ok("version");
      }
      return err({
        errors: [
          {
            nodes: [],
            message: "Neither help nor version"
          }
        ]
      });
    }
  };
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/positional.js
function fullPositional(config) {
  var _a, _b, _c;
  const displayName = (_b = (_a = config.displayName) !== null && _a !== void 0 ? _a : config.type.displayName) !== null && _b !== void 0 ? _b : "arg";
  return {
    description: (_c = config.description) !== null && _c !== void 0 ? _c : config.type.description,
    helpTopics() {
      var _a2, _b2, _c2, _d;
      const defaults = [];
      const defaultValueFn = (_a2 = config.defaultValue) !== null && _a2 !== void 0 ? _a2 : config.type.defaultValue;
      if (defaultValueFn) {
        try {
          const defaultValue = defaultValueFn();
          if ((_b2 = config.defaultValueIsSerializable) !== null && _b2 !== void 0 ? _b2 : config.type.defaultValueIsSerializable) {
            defaults.push(`default: ${source_default.italic(defaultValue)}`);
          } else {
            defaults.push("optional");
          }
        } catch (e) {
        }
      }
      const usage = defaults.length > 0 ? `[${displayName}]` : `<${displayName}>`;
      return [
        {
          category: "arguments",
          usage,
          description: (_d = (_c2 = config.description) !== null && _c2 !== void 0 ? _c2 : config.type.description) !== null && _d !== void 0 ? _d : "self explanatory",
          defaults
        }
      ];
    },
    register(_opts) {
    },
    async parse({ nodes, visitedNodes }) {
      var _a2;
      const positionals = nodes.filter((node) => node.type === "positionalArgument" && !visitedNodes.has(node));
      const defaultValueFn = (_a2 = config.defaultValue) !== null && _a2 !== void 0 ? _a2 : config.type.defaultValue;
      const positional2 = positionals[0];
      if (!positional2) {
        if (defaultValueFn) {
          return ok(defaultValueFn());
        }
        return err({
          errors: [
            {
              nodes: [],
              message: `No value provided for ${displayName}`
            }
          ]
        });
      }
      visitedNodes.add(positional2);
      const decoded = await safeAsync(config.type.from(positional2.raw));
      if (isErr(decoded)) {
        return err({
          errors: [
            {
              nodes: [positional2],
              message: decoded.error.message
            }
          ]
        });
      }
      return ok(decoded.value);
    }
  };
}
function positional(config) {
  return fullPositional({
    type: string,
    ...config
  });
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/subcommands.js
function subcommands(config) {
  const circuitbreaker = createCircuitBreaker(!!config.version);
  const type = {
    async from(str) {
      const commands = Object.entries(config.cmds).map(([name, cmd2]) => {
        var _a;
        return {
          cmdName: name,
          names: [name, ...(_a = cmd2.aliases) !== null && _a !== void 0 ? _a : []]
        };
      });
      const cmd = commands.find((x) => x.names.includes(str));
      if (cmd) {
        return cmd.cmdName;
      }
      let errorMessage = "Not a valid subcommand name";
      const closeOptions = (0, import_didyoumean.default)(str, flatMap(commands, (x) => x.names));
      if (closeOptions) {
        const option2 = Array.isArray(closeOptions) ? closeOptions[0] : closeOptions;
        errorMessage += `
Did you mean ${source_default.italic(option2)}?`;
      }
      throw new Error(errorMessage);
    }
  };
  const subcommand = positional({
    displayName: "subcommand",
    description: `one of ${Object.keys(config.cmds).join(", ")}`,
    type
  });
  function normalizeContext(context) {
    var _a;
    if (((_a = context.hotPath) === null || _a === void 0 ? void 0 : _a.length) === 0) {
      context.hotPath.push(config.name);
    }
    if (!context.nodes.some((n) => !context.visitedNodes.has(n))) {
      context.nodes.push({
        type: "longOption",
        index: 0,
        key: "help",
        raw: "--help"
      });
    }
  }
  return {
    version: config.version,
    description: config.description,
    name: config.name,
    handler: (value) => {
      const cmd = config.cmds[value.command];
      return cmd.handler(value.args);
    },
    register(opts) {
      for (const cmd of Object.values(config.cmds)) {
        cmd.register(opts);
      }
      circuitbreaker.register(opts);
    },
    printHelp(context) {
      var _a, _b, _c, _d;
      const lines = [];
      const argsSoFar = (_b = (_a = context.hotPath) === null || _a === void 0 ? void 0 : _a.join(" ")) !== null && _b !== void 0 ? _b : "cli";
      lines.push(source_default.bold(argsSoFar + source_default.italic(" <subcommand>")));
      if (config.description) {
        lines.push(source_default.dim("> ") + config.description);
      }
      lines.push("");
      lines.push(`where ${source_default.italic("<subcommand>")} can be one of:`);
      lines.push("");
      for (const key of Object.keys(config.cmds)) {
        const cmd = config.cmds[key];
        let description = (_c = cmd.description) !== null && _c !== void 0 ? _c : "";
        description = description && ` - ${description} `;
        if ((_d = cmd.aliases) === null || _d === void 0 ? void 0 : _d.length) {
          const aliasTxt = cmd.aliases.length === 1 ? "alias" : "aliases";
          const aliases = cmd.aliases.join(", ");
          description += source_default.dim(`[${aliasTxt}: ${aliases}]`);
        }
        const row = source_default.dim("- ") + key + description;
        lines.push(row.trim());
      }
      const helpCommand = source_default.yellow(`${argsSoFar} <subcommand> --help`);
      lines.push("");
      lines.push(source_default.dim(`For more help, try running \`${helpCommand}\``));
      return lines.join("\n");
    },
    async parse(context) {
      var _a;
      normalizeContext(context);
      const parsed = await subcommand.parse(context);
      if (isErr(parsed)) {
        return err({
          errors: parsed.error.errors,
          partialValue: {}
        });
      }
      (_a = context.hotPath) === null || _a === void 0 ? void 0 : _a.push(parsed.value);
      const cmd = config.cmds[parsed.value];
      const parsedCommand = await cmd.parse(context);
      if (isErr(parsedCommand)) {
        return err({
          errors: parsedCommand.error.errors,
          partialValue: {
            command: parsed.value,
            args: parsedCommand.error.partialValue
          }
        });
      }
      return ok({
        args: parsedCommand.value,
        command: parsed.value
      });
    },
    async run(context) {
      var _a;
      normalizeContext(context);
      const parsedSubcommand = await subcommand.parse(context);
      if (isErr(parsedSubcommand)) {
        const breaker = await circuitbreaker.parse(context);
        handleCircuitBreaker(context, this, breaker);
        return err({ ...parsedSubcommand.error, partialValue: {} });
      }
      (_a = context.hotPath) === null || _a === void 0 ? void 0 : _a.push(parsedSubcommand.value);
      const cmd = config.cmds[parsedSubcommand.value];
      const commandRun = await cmd.run(context);
      if (isOk(commandRun)) {
        return ok({
          command: parsedSubcommand.value,
          value: commandRun.value
        });
      }
      return err({
        ...commandRun.error,
        partialValue: {
          command: parsedSubcommand.value,
          value: commandRun.error.partialValue
        }
      });
    }
  };
}
function flatMap(array2, f) {
  const rs = [];
  for (const item of array2) {
    rs.push(...f(item));
  }
  return rs;
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/binary.js
function binary(cmd) {
  return {
    ...cmd,
    run(context) {
      var _a;
      const name = cmd.name || context.nodes[1].raw;
      (_a = context.hotPath) === null || _a === void 0 ? void 0 : _a.push(name);
      context.nodes.splice(0, 1);
      context.nodes[0].raw = name;
      context.visitedNodes.add(context.nodes[0]);
      return cmd.run(context);
    }
  };
}

// ../../node_modules/.bun/ansi-regex@6.2.2/node_modules/ansi-regex/index.js
function ansiRegex({ onlyFirst = false } = {}) {
  const ST = "(?:\\u0007|\\u001B\\u005C|\\u009C)";
  const osc = `(?:\\u001B\\][\\s\\S]*?${ST})`;
  const csi = "[\\u001B\\u009B][[\\]()#;?]*(?:\\d{1,4}(?:[;:]\\d{0,4})*)?[\\dA-PR-TZcf-nq-uy=><~]";
  const pattern = `${osc}|${csi}`;
  return new RegExp(pattern, onlyFirst ? void 0 : "g");
}

// ../../node_modules/.bun/strip-ansi@7.1.2/node_modules/strip-ansi/index.js
var regex = ansiRegex();
function stripAnsi(string2) {
  if (typeof string2 !== "string") {
    throw new TypeError(`Expected a \`string\`, got \`${typeof string2}\``);
  }
  return string2.replace(regex, "");
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/utils.js
function padNoAnsi(str, length, place) {
  const noAnsiStr = stripAnsi(str);
  if (length < noAnsiStr.length)
    return str;
  const pad = Array(length - noAnsiStr.length + 1).join(" ");
  if (place === "end") {
    return str + pad;
  }
  return pad + str;
}
function groupBy(objs, f) {
  var _a;
  const result = {};
  for (const obj of objs) {
    const key = f(obj);
    result[key] = (_a = result[key]) !== null && _a !== void 0 ? _a : [];
    result[key].push(obj);
  }
  return result;
}
function entries(obj) {
  return Object.entries(obj);
}
function* enumerate(arr) {
  for (let i = 0; i < arr.length; i++) {
    yield [i, arr[i]];
  }
}
function flatMap2(xs, fn) {
  const results = [];
  for (const x of xs) {
    results.push(...fn(x));
  }
  return results;
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/command.js
function command(config) {
  const argEntries = entries(config.args);
  const circuitbreaker = createCircuitBreaker(!!config.version);
  return {
    name: config.name,
    aliases: config.aliases,
    handler: config.handler,
    description: config.description,
    version: config.version,
    helpTopics() {
      return flatMap2(Object.values(config.args).concat([circuitbreaker]), (x) => {
        var _a, _b;
        return (_b = (_a = x.helpTopics) === null || _a === void 0 ? void 0 : _a.call(x)) !== null && _b !== void 0 ? _b : [];
      });
    },
    printHelp(context) {
      var _a, _b;
      const lines = [];
      let name = (_b = (_a = context.hotPath) === null || _a === void 0 ? void 0 : _a.join(" ")) !== null && _b !== void 0 ? _b : "";
      if (!name) {
        name = config.name;
      }
      name = source_default.bold(name);
      if (config.version) {
        name += ` ${source_default.dim(config.version)}`;
      }
      lines.push(name);
      if (config.description) {
        lines.push(source_default.dim("> ") + config.description);
      }
      const usageBreakdown = groupBy(this.helpTopics(), (x) => x.category);
      for (const [category, helpTopics] of entries(usageBreakdown)) {
        lines.push("");
        lines.push(`${category.toUpperCase()}:`);
        const widestUsage = helpTopics.reduce((len, curr) => {
          return Math.max(len, curr.usage.length);
        }, 0);
        for (const helpTopic of helpTopics) {
          let line = "";
          line += `  ${padNoAnsi(helpTopic.usage, widestUsage, "end")}`;
          line += " - ";
          line += helpTopic.description;
          for (const defaultValue of helpTopic.defaults) {
            line += source_default.dim(` [${defaultValue}]`);
          }
          lines.push(line);
        }
      }
      return lines.join("\n");
    },
    register(opts) {
      var _a;
      for (const [, arg] of argEntries) {
        (_a = arg.register) === null || _a === void 0 ? void 0 : _a.call(arg, opts);
      }
    },
    async parse(context) {
      var _a;
      if (((_a = context.hotPath) === null || _a === void 0 ? void 0 : _a.length) === 0) {
        context.hotPath.push(config.name);
      }
      const resultObject = {};
      const errors = [];
      for (const [argName, arg] of argEntries) {
        const result = await arg.parse(context);
        if (isErr(result)) {
          errors.push(...result.error.errors);
        } else {
          resultObject[argName] = result.value;
        }
      }
      const unknownArguments = [];
      for (const node of context.nodes) {
        if (context.visitedNodes.has(node)) {
          continue;
        }
        if (node.type === "forcePositional") {
        } else if (node.type === "shortOptions") {
          for (const option2 of node.options) {
            if (context.visitedNodes.has(option2)) {
              continue;
            }
            unknownArguments.push(option2);
          }
        } else {
          unknownArguments.push(node);
        }
      }
      if (unknownArguments.length > 0) {
        errors.push({
          message: "Unknown arguments",
          nodes: unknownArguments
        });
      }
      if (errors.length > 0) {
        return err({
          errors,
          partialValue: resultObject
        });
      }
      return ok(resultObject);
    },
    async run(context) {
      const breaker = await circuitbreaker.parse(context);
      handleCircuitBreaker(context, this, breaker);
      const parsed = await this.parse(context);
      if (isErr(parsed)) {
        return err(parsed.error);
      }
      return ok(await this.handler(parsed.value));
    }
  };
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/option.js
function fullOption(config) {
  var _a;
  return {
    description: (_a = config.description) !== null && _a !== void 0 ? _a : config.type.description,
    helpTopics() {
      var _a2, _b, _c;
      const displayName = (_a2 = config.type.displayName) !== null && _a2 !== void 0 ? _a2 : "value";
      let usage = `--${config.long}`;
      if (config.short) {
        usage += `, -${config.short}`;
      }
      usage += ` <${displayName}>`;
      const defaults = [];
      if (config.env) {
        const env2 = process.env[config.env] === void 0 ? "" : `=${source_default.italic(process.env[config.env])}`;
        defaults.push(`env: ${config.env}${env2}`);
      }
      if (config.defaultValue) {
        try {
          const defaultValue = config.defaultValue();
          if (config.defaultValueIsSerializable) {
            defaults.push(`default: ${source_default.italic(defaultValue)}`);
          } else {
            defaults.push("optional");
          }
        } catch (e) {
        }
      } else if (config.type.defaultValue) {
        try {
          const defaultValue = config.type.defaultValue();
          if (config.type.defaultValueIsSerializable) {
            defaults.push(`default: ${source_default.italic(defaultValue)}`);
          } else {
            defaults.push("optional");
          }
        } catch (e) {
        }
      } else if (config.onMissing || config.type.onMissing) {
        defaults.push("optional");
      }
      return [
        {
          category: "options",
          usage,
          defaults,
          description: (_c = (_b = config.description) !== null && _b !== void 0 ? _b : config.type.description) !== null && _c !== void 0 ? _c : "self explanatory"
        }
      ];
    },
    register(opts) {
      opts.forceOptionLongNames.add(config.long);
      if (config.short) {
        opts.forceOptionShortNames.add(config.short);
      }
    },
    async parse({ nodes, visitedNodes }) {
      const options = findOption(nodes, {
        longNames: [config.long],
        shortNames: config.short ? [config.short] : []
      }).filter((x) => !visitedNodes.has(x));
      options.forEach((opt) => visitedNodes.add(opt));
      if (options.length > 1) {
        const error = {
          message: `Too many times provided. Expected 1, got: ${options.length}`,
          nodes: options
        };
        return err({ errors: [error] });
      }
      const valueFromEnv = config.env ? process.env[config.env] : void 0;
      const defaultValueFn = config.defaultValue || config.type.defaultValue;
      const onMissingFn = config.onMissing || config.type.onMissing;
      const option2 = options[0];
      let rawValue;
      let envPrefix = "";
      if (option2 === null || option2 === void 0 ? void 0 : option2.value) {
        rawValue = option2.value.node.raw;
      } else if (valueFromEnv !== void 0) {
        rawValue = valueFromEnv;
        envPrefix = `env[${source_default.italic(config.env)}]: `;
      } else if (defaultValueFn) {
        try {
          const defaultValue = defaultValueFn();
          return ok(defaultValue);
        } catch (e) {
          const message = `Default value not found for '--${config.long}': ${e.message}`;
          return err({
            errors: [
              {
                nodes: [],
                message
              }
            ]
          });
        }
      } else if (onMissingFn) {
        try {
          const missingValue = await onMissingFn();
          return ok(missingValue);
        } catch (e) {
          const message = `Failed to get missing value for '--${config.long}': ${e.message}`;
          return err({
            errors: [
              {
                nodes: [],
                message
              }
            ]
          });
        }
      } else {
        const raw = (option2 === null || option2 === void 0 ? void 0 : option2.type) === "shortOption" ? `-${option2 === null || option2 === void 0 ? void 0 : option2.key}` : `--${config.long}`;
        return err({
          errors: [
            {
              nodes: options,
              message: `No value provided for ${raw}`
            }
          ]
        });
      }
      const decoded = await safeAsync(config.type.from(rawValue));
      if (isErr(decoded)) {
        return err({
          errors: [
            { nodes: options, message: envPrefix + decoded.error.message }
          ]
        });
      }
      return ok(decoded.value);
    }
  };
}
function option(config) {
  return fullOption({
    type: string,
    ...config
  });
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/errorBox.js
function highlight(nodes, error) {
  const strings = [];
  let errorIndex = void 0;
  function foundError() {
    if (errorIndex !== void 0)
      return;
    errorIndex = stripAnsi(strings.join(" ")).length;
  }
  if (error.nodes.length === 0)
    return;
  nodes.forEach((node) => {
    if (error.nodes.includes(node)) {
      foundError();
      return strings.push(source_default.red(node.raw));
    }
    if (node.type === "shortOptions") {
      let failed = false;
      let s = "";
      for (const option2 of node.options) {
        if (error.nodes.includes(option2)) {
          s += source_default.red(option2.raw);
          failed = true;
        } else {
          s += source_default.dim(option2.raw);
        }
      }
      const prefix = failed ? source_default.red("-") : source_default.dim("-");
      if (failed) {
        foundError();
      }
      return strings.push(prefix + s);
    }
    return strings.push(source_default.dim(node.raw));
  });
  return { colorized: strings.join(" "), errorIndex: errorIndex !== null && errorIndex !== void 0 ? errorIndex : 0 };
}
function errorBox(nodes, errors, breadcrumbs) {
  const withHighlight = [];
  const errorMessages = [];
  for (const error of errors) {
    const highlighted = highlight(nodes, error);
    withHighlight.push({ message: error.message, highlighted });
  }
  let number2 = 1;
  const maxNumberWidth = String(withHighlight.length).length;
  errorMessages.push(`${source_default.red.bold("error: ")}found ${source_default.yellow(withHighlight.length)} error${withHighlight.length > 1 ? "s" : ""}`);
  errorMessages.push("");
  withHighlight.filter((x) => x.highlighted).forEach((x) => {
    if (!x.highlighted) {
      throw new Error("WELP");
    }
    const pad = "".padStart(x.highlighted.errorIndex);
    errorMessages.push(`  ${x.highlighted.colorized}`);
    for (const [index, line] of enumerate(x.message.split("\n"))) {
      const prefix = index === 0 ? source_default.bold("^") : " ";
      const msg = source_default.red(`  ${pad} ${prefix} ${line}`);
      errorMessages.push(msg);
    }
    errorMessages.push("");
    number2++;
  });
  const withNoHighlight = withHighlight.filter((x) => !x.highlighted);
  if (number2 > 1) {
    if (withNoHighlight.length === 1) {
      errorMessages.push("Along with the following error:");
    } else if (withNoHighlight.length > 1) {
      errorMessages.push("Along with the following errors:");
    }
  }
  withNoHighlight.forEach(({ message }) => {
    const num = source_default.red.bold(`${padNoAnsi(number2.toString(), maxNumberWidth, "start")}.`);
    errorMessages.push(`  ${num} ${source_default.red(message)}`);
    number2++;
  });
  const helpCmd = source_default.yellow(`${breadcrumbs.join(" ")} --help`);
  errorMessages.push("");
  errorMessages.push(`${source_default.red.bold("hint: ")}for more information, try '${helpCmd}'`);
  return errorMessages.join("\n");
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/newparser/parser.js
var import_debug = __toESM(require_src());
var debug = (0, import_debug.default)("cmd-ts:parser");
function parse(tokens, forceFlag) {
  if (debug.enabled) {
    const registered = {
      shortFlags: [...forceFlag.forceFlagShortNames],
      longFlags: [...forceFlag.forceFlagLongNames],
      shortOptions: [...forceFlag.forceOptionShortNames],
      longOptions: [...forceFlag.forceOptionLongNames]
    };
    debug("Registered:", JSON.stringify(registered));
  }
  const nodes = [];
  let index = 0;
  let forcedPositional = false;
  function getToken() {
    return tokens[index++];
  }
  function peekToken() {
    return tokens[index];
  }
  while (index < tokens.length) {
    const currentToken = getToken();
    if (!currentToken)
      break;
    if (currentToken.type === "argumentDivider") {
      continue;
    }
    if (forcedPositional) {
      let str = currentToken.raw;
      let nextToken = getToken();
      while (nextToken && (nextToken === null || nextToken === void 0 ? void 0 : nextToken.type) !== "argumentDivider") {
        str += nextToken.raw;
        nextToken = getToken();
      }
      nodes.push({
        type: "positionalArgument",
        index: currentToken.index,
        raw: str
      });
      continue;
    }
    if (currentToken.type === "char") {
      let str = currentToken.raw;
      let nextToken = getToken();
      while (nextToken && (nextToken === null || nextToken === void 0 ? void 0 : nextToken.type) !== "argumentDivider") {
        str += nextToken.raw;
        nextToken = getToken();
      }
      nodes.push({
        type: "positionalArgument",
        index: currentToken.index,
        raw: str
      });
      continue;
    }
    if (currentToken.type === "longPrefix") {
      let nextToken = getToken();
      if ((nextToken === null || nextToken === void 0 ? void 0 : nextToken.type) === "argumentDivider" || !nextToken) {
        nodes.push({
          type: "forcePositional",
          index: currentToken.index,
          raw: "--"
        });
        forcedPositional = true;
        continue;
      }
      let key = "";
      while (nextToken && (nextToken === null || nextToken === void 0 ? void 0 : nextToken.raw) !== "=" && (nextToken === null || nextToken === void 0 ? void 0 : nextToken.type) !== "argumentDivider") {
        key += nextToken.raw;
        nextToken = getToken();
      }
      const parsedValue = parseOptionValue({
        key,
        delimiterToken: nextToken,
        forceFlag: forceFlag.forceFlagLongNames,
        getToken,
        peekToken,
        forceOption: forceFlag.forceOptionLongNames
      });
      let raw = `--${key}`;
      if (parsedValue) {
        raw += parsedValue.raw;
      }
      nodes.push({
        type: "longOption",
        key,
        index: currentToken.index,
        raw,
        value: parsedValue
      });
      continue;
    }
    if (currentToken.type === "shortPrefix") {
      const keys = [];
      let nextToken = getToken();
      if ((nextToken === null || nextToken === void 0 ? void 0 : nextToken.type) === "argumentDivider" || !nextToken) {
        nodes.push({
          type: "positionalArgument",
          index: currentToken.index,
          raw: "-"
        });
        continue;
      }
      while (nextToken && (nextToken === null || nextToken === void 0 ? void 0 : nextToken.type) !== "argumentDivider" && (nextToken === null || nextToken === void 0 ? void 0 : nextToken.raw) !== "=") {
        keys.push(nextToken);
        nextToken = getToken();
      }
      const lastKey = keys.pop();
      const parsedValue = parseOptionValue({
        key: lastKey.raw,
        delimiterToken: nextToken,
        forceFlag: forceFlag.forceFlagShortNames,
        forceOption: forceFlag.forceOptionShortNames,
        getToken,
        peekToken
      });
      const options = [];
      for (const key of keys) {
        options.push({
          type: "shortOption",
          index: key.index,
          raw: key.raw,
          key: key.raw
        });
      }
      let lastKeyRaw = lastKey.raw;
      if (parsedValue) {
        lastKeyRaw += parsedValue.raw;
      }
      options.push({
        type: "shortOption",
        index: lastKey.index,
        raw: lastKeyRaw,
        value: parsedValue,
        key: lastKey.raw
      });
      let optionsRaw = `-${keys.map((x) => x.raw).join("")}${lastKey.raw}`;
      if (parsedValue) {
        optionsRaw += parsedValue.raw;
      }
      const shortOptions = {
        type: "shortOptions",
        index: currentToken.index,
        raw: optionsRaw,
        options
      };
      nodes.push(shortOptions);
      continue;
    }
    index++;
  }
  if (debug.enabled) {
    const objectNodes = nodes.map((node) => ({ [node.type]: node.raw }));
    debug("Parsed items:", JSON.stringify(objectNodes));
  }
  return nodes;
}
function parseOptionValue(opts) {
  var _a;
  const { getToken, delimiterToken, forceFlag, key, forceOption } = opts;
  const shouldReadKeyAsOption = forceOption.has(key);
  const shouldReadKeyAsFlag = !shouldReadKeyAsOption && (forceFlag.has(key) || ((_a = opts.peekToken()) === null || _a === void 0 ? void 0 : _a.type) !== "char");
  if (!delimiterToken || delimiterToken.raw !== "=" && shouldReadKeyAsFlag) {
    return;
  }
  const delimiter = delimiterToken.raw === "=" ? "=" : " ";
  const delimiterIndex = delimiterToken.index;
  let nextToken = getToken();
  if (!nextToken) {
    return;
  }
  let value = "";
  const valueIndex = nextToken.index;
  while (nextToken && (nextToken === null || nextToken === void 0 ? void 0 : nextToken.type) !== "argumentDivider") {
    value += nextToken.raw;
    nextToken = getToken();
  }
  return {
    type: "optionValue",
    index: delimiterToken.index,
    delimiter: { type: "delimiter", raw: delimiter, index: delimiterIndex },
    node: { type: "value", raw: value, index: valueIndex },
    raw: `${delimiter}${value}`
  };
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/newparser/tokenizer.js
function tokenize(strings) {
  const tokens = [];
  let overallIndex = 0;
  const push = (token) => {
    tokens.push(token);
    overallIndex += token.raw.length;
  };
  for (const [stringIndex, string2] of enumerate(strings)) {
    const chars = [...string2];
    for (let i = 0; i < chars.length; i++) {
      if (chars[i] === "-" && chars[i + 1] === "-") {
        push({ type: "longPrefix", raw: "--", index: overallIndex });
        i++;
      } else if (chars[i] === "-") {
        push({ type: "shortPrefix", raw: "-", index: overallIndex });
      } else {
        push({ type: "char", raw: chars[i], index: overallIndex });
      }
    }
    if (stringIndex + 1 !== strings.length) {
      push({ type: "argumentDivider", raw: " ", index: overallIndex });
    }
  }
  return tokens;
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/runner.js
async function run(ap, strings) {
  const result = await runSafely(ap, strings);
  if (isErr(result)) {
    return result.error.run();
  }
  return result.value;
}
async function runSafely(ap, strings) {
  const hotPath = [];
  const nodes = parseCommon(ap, strings);
  try {
    const result = await ap.run({ nodes, visitedNodes: /* @__PURE__ */ new Set(), hotPath });
    if (isErr(result)) {
      throw new Exit({
        message: errorBox(nodes, result.error.errors, hotPath),
        exitCode: 1,
        into: "stderr"
      });
    }
    return ok(result.value);
  } catch (e) {
    if (e instanceof Exit) {
      return err(e);
    }
    throw e;
  }
}
function parseCommon(ap, strings) {
  const longFlagKeys = /* @__PURE__ */ new Set();
  const shortFlagKeys = /* @__PURE__ */ new Set();
  const longOptionKeys = /* @__PURE__ */ new Set();
  const shortOptionKeys = /* @__PURE__ */ new Set();
  const registerContext = {
    forceFlagShortNames: shortFlagKeys,
    forceFlagLongNames: longFlagKeys,
    forceOptionShortNames: shortOptionKeys,
    forceOptionLongNames: longOptionKeys
  };
  ap.register(registerContext);
  const tokens = tokenize(strings);
  return parse(tokens, registerContext);
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/restPositionals.js
function fullRestPositionals(config) {
  return {
    helpTopics() {
      var _a, _b, _c, _d;
      const displayName = (_b = (_a = config.displayName) !== null && _a !== void 0 ? _a : config.type.displayName) !== null && _b !== void 0 ? _b : "arg";
      return [
        {
          usage: `[...${displayName}]`,
          category: "arguments",
          defaults: [],
          description: (_d = (_c = config.description) !== null && _c !== void 0 ? _c : config.type.description) !== null && _d !== void 0 ? _d : ""
        }
      ];
    },
    register(_opts) {
    },
    async parse({ nodes, visitedNodes }) {
      const positionals = nodes.filter((node) => node.type === "positionalArgument" && !visitedNodes.has(node));
      const results = [];
      const errors = [];
      for (const positional2 of positionals) {
        visitedNodes.add(positional2);
        const decoded = await safeAsync(config.type.from(positional2.raw));
        if (isOk(decoded)) {
          results.push(decoded.value);
        } else {
          errors.push({
            nodes: [positional2],
            message: decoded.error.message
          });
        }
      }
      if (errors.length > 0) {
        return err({
          errors
        });
      }
      return ok(results);
    }
  };
}
function restPositionals(config) {
  return fullRestPositionals({
    type: string,
    ...config
  });
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/multioption.js
function multioption(config) {
  return {
    helpTopics() {
      var _a, _b;
      const displayName = (_a = config.type.displayName) !== null && _a !== void 0 ? _a : "value";
      let usage = `--${config.long} <${displayName}>`;
      if (config.short) {
        usage += `, -${config.short}=<${displayName}>`;
      }
      const defaults = [];
      if (config.defaultValue) {
        try {
          const defaultValue = config.defaultValue();
          if (config.defaultValueIsSerializable) {
            defaults.push(`default: ${source_default.italic(defaultValue)}`);
          } else {
            defaults.push("[...optional]");
          }
        } catch (e) {
        }
      } else if (config.type.defaultValue) {
        try {
          const defaultValue = config.type.defaultValue();
          if (config.type.defaultValueIsSerializable) {
            defaults.push(`default: ${source_default.italic(defaultValue)}`);
          } else {
            defaults.push("[...optional]");
          }
        } catch (e) {
        }
      } else if (config.onMissing || config.type.onMissing) {
        defaults.push("[...optional]");
      }
      return [
        {
          category: "options",
          usage,
          defaults,
          description: (_b = config.description) !== null && _b !== void 0 ? _b : "self explanatory"
        }
      ];
    },
    register(opts) {
      opts.forceOptionLongNames.add(config.long);
      if (config.short) {
        opts.forceOptionShortNames.add(config.short);
      }
    },
    async parse({ nodes, visitedNodes }) {
      var _a;
      const options = findOption(nodes, {
        longNames: [config.long],
        shortNames: config.short ? [config.short] : []
      }).filter((x) => !visitedNodes.has(x));
      const defaultValueFn = config.defaultValue || config.type.defaultValue;
      const onMissingFn = config.onMissing || config.type.onMissing;
      if (options.length === 0 && defaultValueFn) {
        try {
          const defaultValue = defaultValueFn();
          return ok(defaultValue);
        } catch (e) {
          const message = `Failed to resolve default value for '--${config.long}': ${e.message}`;
          return err({
            errors: [
              {
                nodes: [],
                message
              }
            ]
          });
        }
      } else if (options.length === 0 && onMissingFn) {
        try {
          const missingValue = await onMissingFn();
          return ok(missingValue);
        } catch (e) {
          const message = `Failed to get missing value for '--${config.long}': ${e.message}`;
          return err({
            errors: [
              {
                nodes: [],
                message
              }
            ]
          });
        }
      }
      for (const option2 of options) {
        visitedNodes.add(option2);
      }
      const optionValues = [];
      const errors = [];
      const flagNodes = [];
      for (const option2 of options) {
        const providedValue = (_a = option2.value) === null || _a === void 0 ? void 0 : _a.node.raw;
        if (providedValue === void 0) {
          flagNodes.push(option2);
          continue;
        }
        optionValues.push(providedValue);
      }
      if (flagNodes.length > 0) {
        errors.push({
          nodes: flagNodes,
          message: "Expected to get a value, found a flag"
        });
      }
      if (errors.length > 0) {
        return err({ errors });
      }
      const multiDecoded = await safeAsync(config.type.from(optionValues));
      if (isErr(multiDecoded)) {
        return err({
          errors: [{ nodes: options, message: multiDecoded.error.message }]
        });
      }
      return multiDecoded;
    }
  };
}

// ../../node_modules/.bun/cmd-ts@0.14.3/node_modules/cmd-ts/dist/esm/oneOf.js
import { inspect } from "node:util";
function oneOf(literals) {
  const examples = literals.map((x) => inspect(x)).join(", ");
  return {
    async from(str) {
      const value = literals.find((x) => x === str);
      if (!value) {
        throw new Error(`Invalid value '${str}'. Expected one of: ${examples}`);
      }
      return value;
    },
    description: `One of ${examples}`
  };
}

// src/commands/compare/index.ts
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
var c2 = noColor ? Object.fromEntries(Object.keys(colors).map((k) => [k, ""])) : colors;
function loadCompareResults(filePath) {
  return loadLightweightResults(resolveResultSourcePath(filePath)).map((record) => {
    if (!record.testId || record.testId === "unknown") {
      throw new Error(`Missing test_id in result source: ${filePath}`);
    }
    if (typeof record.score !== "number" || Number.isNaN(record.score)) {
      throw new Error(`Missing or invalid score in result source: ${filePath}`);
    }
    return {
      testId: record.testId,
      score: record.score,
      target: record.target
    };
  });
}
function loadJsonlResults(filePath) {
  return loadCompareResults(filePath).map(({ testId, score }) => ({ testId, score }));
}
function loadCombinedResults(filePath) {
  const groups = /* @__PURE__ */ new Map();
  for (const record of loadCompareResults(filePath)) {
    if (typeof record.target !== "string") {
      throw new Error(`Missing target field in combined result source: ${filePath}`);
    }
    const target = record.target;
    if (!groups.has(target)) {
      groups.set(target, []);
    }
    groups.get(target)?.push({ testId: record.testId, score: record.score });
  }
  return groups;
}
function computeNormalizedGain(baselineScore, candidateScore) {
  if (baselineScore >= 1) return null;
  return (candidateScore - baselineScore) / (1 - baselineScore);
}
function classifyOutcome(delta, threshold) {
  if (delta >= threshold) return "win";
  if (delta <= -threshold) return "loss";
  return "tie";
}
function compareResults(results1, results2, threshold) {
  const map1 = new Map(results1.map((r) => [r.testId, r.score]));
  const map2 = new Map(results2.map((r) => [r.testId, r.score]));
  const matched = [];
  const matchedIds = /* @__PURE__ */ new Set();
  for (const [testId, score1] of map1) {
    const score2 = map2.get(testId);
    if (score2 !== void 0) {
      const delta = score2 - score1;
      matched.push({
        testId,
        score1,
        score2,
        delta,
        normalizedGain: computeNormalizedGain(score1, score2),
        outcome: classifyOutcome(delta, threshold)
      });
      matchedIds.add(testId);
    }
  }
  const unmatchedFile1 = results1.filter((r) => !matchedIds.has(r.testId)).length;
  const unmatchedFile2 = results2.filter((r) => !map1.has(r.testId)).length;
  const wins = matched.filter((m) => m.outcome === "win").length;
  const losses = matched.filter((m) => m.outcome === "loss").length;
  const ties = matched.filter((m) => m.outcome === "tie").length;
  const meanDelta = matched.length > 0 ? matched.reduce((sum, m) => sum + m.delta, 0) / matched.length : 0;
  const gainValues = matched.map((m) => m.normalizedGain).filter((g) => g !== null);
  const meanNormalizedGain = gainValues.length > 0 ? Math.round(gainValues.reduce((sum, g) => sum + g, 0) / gainValues.length * 1e3) / 1e3 : null;
  return {
    matched,
    unmatched: { file1: unmatchedFile1, file2: unmatchedFile2 },
    summary: {
      total: results1.length + results2.length,
      matched: matched.length,
      wins,
      losses,
      ties,
      meanDelta: Math.round(meanDelta * 1e3) / 1e3,
      meanNormalizedGain
    }
  };
}
function compareMatrix(groups, threshold) {
  const targets = [...groups.keys()].sort();
  const allTestIds = /* @__PURE__ */ new Set();
  for (const results of groups.values()) {
    for (const r of results) {
      allTestIds.add(r.testId);
    }
  }
  const sortedTestIds = [...allTestIds].sort();
  const scoreLookup = /* @__PURE__ */ new Map();
  for (const [target, results] of groups) {
    scoreLookup.set(target, new Map(results.map((r) => [r.testId, r.score])));
  }
  const matrix = sortedTestIds.map((testId) => {
    const scores = {};
    for (const target of targets) {
      const score = scoreLookup.get(target)?.get(testId);
      if (score !== void 0) {
        scores[target] = score;
      }
    }
    return { testId, scores };
  });
  const pairwise = [];
  for (let i = 0; i < targets.length; i++) {
    for (let j = i + 1; j < targets.length; j++) {
      const t1 = targets[i];
      const t2 = targets[j];
      const r1 = groups.get(t1) ?? [];
      const r2 = groups.get(t2) ?? [];
      const comparison = compareResults(r1, r2, threshold);
      comparison.baseline = t1;
      comparison.candidate = t2;
      pairwise.push(comparison);
    }
  }
  return { matrix, pairwise, targets };
}
function determineExitCode(meanDelta) {
  return meanDelta >= 0 ? 0 : 1;
}
function determineMatrixExitCode(matrixOutput, baselineTarget) {
  if (!baselineTarget) {
    return 0;
  }
  for (const p of matrixOutput.pairwise) {
    if (p.baseline === baselineTarget && p.summary.meanDelta < 0) {
      return 1;
    }
    if (p.candidate === baselineTarget && p.summary.meanDelta > 0) {
      return 1;
    }
  }
  return 0;
}
function formatDelta(delta) {
  const sign = delta >= 0 ? "+" : "";
  const formatted = `${sign}${delta.toFixed(2)}`;
  if (delta > 0) return `${c2.green}${formatted}${c2.reset}`;
  if (delta < 0) return `${c2.red}${formatted}${c2.reset}`;
  return `${c2.gray}${formatted}${c2.reset}`;
}
function formatOutcome(outcome) {
  switch (outcome) {
    case "win":
      return `${c2.green}\u2713 win${c2.reset}`;
    case "loss":
      return `${c2.red}\u2717 loss${c2.reset}`;
    case "tie":
      return `${c2.gray}= tie${c2.reset}`;
  }
}
var ansiPattern = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
function stripAnsi2(str) {
  return str.replace(ansiPattern, "");
}
function padRight2(str, len) {
  const plainLen = stripAnsi2(str).length;
  return str + " ".repeat(Math.max(0, len - plainLen));
}
function padLeft2(str, len) {
  const plainLen = stripAnsi2(str).length;
  return " ".repeat(Math.max(0, len - plainLen)) + str;
}
function formatTable(comparison, file1, file2) {
  const lines = [];
  lines.push("");
  lines.push(
    `${c2.bold}Comparing:${c2.reset} ${c2.cyan}${file1}${c2.reset} \u2192 ${c2.cyan}${file2}${c2.reset}`
  );
  lines.push("");
  if (comparison.matched.length === 0) {
    lines.push(`${c2.yellow}No matching test IDs found between files.${c2.reset}`);
  } else {
    const maxIdLen = Math.max(
      7,
      ...comparison.matched.map((m) => m.testId.length)
    );
    const header = `  ${padRight2("Test ID", maxIdLen)}  ${padLeft2("Baseline", 8)}  ${padLeft2("Candidate", 9)}  ${padLeft2("Delta", 8)}  Result`;
    lines.push(`${c2.dim}${header}${c2.reset}`);
    lines.push(
      `${c2.dim}  ${"\u2500".repeat(maxIdLen)}  ${"\u2500".repeat(8)}  ${"\u2500".repeat(9)}  ${"\u2500".repeat(8)}  ${"\u2500".repeat(8)}${c2.reset}`
    );
    for (const m of comparison.matched) {
      const row = `  ${padRight2(m.testId, maxIdLen)}  ${padLeft2(m.score1.toFixed(2), 8)}  ${padLeft2(m.score2.toFixed(2), 9)}  ${padLeft2(formatDelta(m.delta), 8)}  ${formatOutcome(m.outcome)}`;
      lines.push(row);
    }
  }
  if (comparison.unmatched.file1 > 0 || comparison.unmatched.file2 > 0) {
    lines.push("");
    lines.push(
      `${c2.yellow}\u26A0 Unmatched:${c2.reset} ${comparison.unmatched.file1} in baseline, ${comparison.unmatched.file2} in candidate`
    );
  }
  lines.push("");
  const { wins, losses, ties, meanDelta, meanNormalizedGain } = comparison.summary;
  const winStr = wins > 0 ? `${c2.green}${wins} win${wins !== 1 ? "s" : ""}${c2.reset}` : `${wins} wins`;
  const lossStr = losses > 0 ? `${c2.red}${losses} loss${losses !== 1 ? "es" : ""}${c2.reset}` : `${losses} losses`;
  const tieStr = `${ties} tie${ties !== 1 ? "s" : ""}`;
  const deltaColor = meanDelta > 0 ? c2.green : meanDelta < 0 ? c2.red : c2.gray;
  const deltaSign = meanDelta >= 0 ? "+" : "";
  const status = meanDelta > 0 ? `${c2.green}improved${c2.reset}` : meanDelta < 0 ? `${c2.red}regressed${c2.reset}` : `${c2.gray}neutral${c2.reset}`;
  let summaryLine = `${c2.bold}Summary:${c2.reset} ${winStr}, ${lossStr}, ${tieStr} | Mean \u0394: ${deltaColor}${deltaSign}${meanDelta.toFixed(3)}${c2.reset}`;
  if (meanNormalizedGain != null) {
    const gColor = meanNormalizedGain > 0 ? c2.green : meanNormalizedGain < 0 ? c2.red : c2.gray;
    const gSign = meanNormalizedGain >= 0 ? "+" : "";
    summaryLine += ` | g: ${gColor}${gSign}${meanNormalizedGain.toFixed(3)}${c2.reset}`;
  }
  summaryLine += ` | Status: ${status}`;
  lines.push(summaryLine);
  lines.push("");
  return lines.join("\n");
}
function formatMatrix(matrixOutput, baselineTarget) {
  const { matrix, pairwise, targets } = matrixOutput;
  const lines = [];
  lines.push("");
  lines.push(`${c2.bold}Score Matrix${c2.reset}`);
  lines.push("");
  if (matrix.length === 0) {
    lines.push(`${c2.yellow}No results found.${c2.reset}`);
    return lines.join("\n");
  }
  const testIdWidth = Math.max(
    7,
    ...matrix.map((r) => r.testId.length)
  );
  const targetWidths = targets.map((t) => Math.max(t.length, 6));
  let header = `  ${padRight2("Test ID", testIdWidth)}`;
  for (let i = 0; i < targets.length; i++) {
    header += `  ${padLeft2(targets[i], targetWidths[i])}`;
  }
  lines.push(`${c2.dim}${header}${c2.reset}`);
  let sep = `  ${"\u2500".repeat(testIdWidth)}`;
  for (let i = 0; i < targets.length; i++) {
    sep += `  ${"\u2500".repeat(targetWidths[i])}`;
  }
  lines.push(`${c2.dim}${sep}${c2.reset}`);
  for (const row of matrix) {
    let line = `  ${padRight2(row.testId, testIdWidth)}`;
    for (let i = 0; i < targets.length; i++) {
      const score = row.scores[targets[i]];
      const scoreStr = score !== void 0 ? score.toFixed(2) : "  --";
      if (baselineTarget && targets[i] !== baselineTarget && score !== void 0) {
        const baselineScore = row.scores[baselineTarget];
        if (baselineScore !== void 0 && score < baselineScore) {
          line += `  ${padLeft2(`${c2.red}${scoreStr}${c2.reset}`, targetWidths[i])}`;
        } else if (baselineScore !== void 0 && score > baselineScore) {
          line += `  ${padLeft2(`${c2.green}${scoreStr}${c2.reset}`, targetWidths[i])}`;
        } else {
          line += `  ${padLeft2(scoreStr, targetWidths[i])}`;
        }
      } else {
        line += `  ${padLeft2(scoreStr, targetWidths[i])}`;
      }
    }
    lines.push(line);
  }
  if (pairwise.length > 0) {
    lines.push("");
    lines.push(`${c2.bold}Pairwise Summary:${c2.reset}`);
    const maxLabelLen = Math.max(
      ...pairwise.map((pw) => `  ${pw.baseline} \u2192 ${pw.candidate}:`.length)
    );
    for (const p of pairwise) {
      const { wins, losses, ties, meanDelta, meanNormalizedGain } = p.summary;
      const sign = meanDelta >= 0 ? "+" : "";
      const deltaColor = meanDelta > 0 ? c2.green : meanDelta < 0 ? c2.red : c2.gray;
      const label = `  ${p.baseline} \u2192 ${p.candidate}:`;
      let pairLine = `${padRight2(label, maxLabelLen)}  ${wins} win${wins !== 1 ? "s" : ""}, ${losses} loss${losses !== 1 ? "es" : ""}, ${ties} tie${ties !== 1 ? "s" : ""}  (${c2.bold}\u0394${c2.reset} ${deltaColor}${sign}${meanDelta.toFixed(3)}${c2.reset}`;
      if (meanNormalizedGain != null) {
        const gColor = meanNormalizedGain > 0 ? c2.green : meanNormalizedGain < 0 ? c2.red : c2.gray;
        const gSign = meanNormalizedGain >= 0 ? "+" : "";
        pairLine += `, ${c2.bold}g${c2.reset} ${gColor}${gSign}${meanNormalizedGain.toFixed(3)}${c2.reset}`;
      }
      pairLine += ")";
      lines.push(pairLine);
    }
  }
  lines.push("");
  return lines.join("\n");
}
var compareCommand = command({
  name: "compare",
  description: "Compare evaluation run manifests: two-run pairwise, single-run pairwise, or N-way matrix",
  args: {
    results: restPositionals({
      type: string,
      displayName: "results",
      description: "Run workspace or run manifest path(s). One source: single-run mode. Two sources: pairwise mode."
    }),
    threshold: option({
      type: optional(number),
      long: "threshold",
      short: "t",
      description: "Score delta threshold for win/loss classification (default: 0.1)"
    }),
    baseline: option({
      type: optional(string),
      long: "baseline",
      short: "b",
      description: "Target name to use as baseline (filters a single run manifest)"
    }),
    candidate: option({
      type: optional(string),
      long: "candidate",
      short: "c",
      description: "Target name to use as candidate (filters a single run manifest)"
    }),
    targets: multioption({
      type: array(string),
      long: "targets",
      description: "Target names to include in matrix comparison (repeatable)"
    }),
    format: option({
      type: optional(oneOf(["table", "json"])),
      long: "format",
      short: "f",
      description: "Output format: table (default, human-readable) or json (machine-readable)"
    }),
    json: flag({
      long: "json",
      description: "Output JSON format (shorthand for --format=json)"
    })
  },
  handler: async ({ results, threshold, baseline, candidate, targets, format, json }) => {
    const effectiveThreshold = threshold ?? 0.1;
    const outputFormat = json ? "json" : format ?? "table";
    try {
      if (results.length === 0) {
        throw new Error("At least one run workspace or run manifest is required");
      }
      if (results.length === 2) {
        const results1 = loadJsonlResults(results[0]);
        const results2 = loadJsonlResults(results[1]);
        const comparison = compareResults(results1, results2, effectiveThreshold);
        if (outputFormat === "json") {
          console.log(JSON.stringify(toSnakeCaseDeep(comparison), null, 2));
        } else {
          console.log(formatTable(comparison, results[0], results[1]));
        }
        const exitCode = determineExitCode(comparison.summary.meanDelta);
        process.exit(exitCode);
      } else if (results.length === 1) {
        let groups = loadCombinedResults(results[0]);
        if (targets.length > 0) {
          const filtered = /* @__PURE__ */ new Map();
          for (const t of targets) {
            const group = groups.get(t);
            if (group) {
              filtered.set(t, group);
            }
          }
          if (filtered.size === 0) {
            const available = [...groups.keys()].join(", ");
            throw new Error(
              `None of the specified targets found in results. Available targets: ${available}`
            );
          }
          groups = filtered;
        }
        if (baseline && !groups.has(baseline)) {
          const available = [...groups.keys()].join(", ");
          throw new Error(
            `Baseline target "${baseline}" not found in results. Available targets: ${available}`
          );
        }
        if (candidate && !baseline) {
          throw new Error(
            "--candidate requires --baseline. Use both flags for pairwise comparison."
          );
        }
        if (baseline && candidate) {
          const baselineResults = groups.get(baseline);
          const candidateResults = groups.get(candidate);
          if (!baselineResults) {
            throw new Error(`Baseline target "${baseline}" not found in results`);
          }
          if (!candidateResults) {
            throw new Error(`Candidate target "${candidate}" not found in results`);
          }
          const comparison = compareResults(baselineResults, candidateResults, effectiveThreshold);
          if (outputFormat === "json") {
            console.log(JSON.stringify(toSnakeCaseDeep(comparison), null, 2));
          } else {
            console.log(formatTable(comparison, baseline, candidate));
          }
          const exitCode = determineExitCode(comparison.summary.meanDelta);
          process.exit(exitCode);
        } else {
          const matrixOutput = compareMatrix(groups, effectiveThreshold);
          if (outputFormat === "json") {
            console.log(JSON.stringify(toSnakeCaseDeep(matrixOutput), null, 2));
          } else {
            console.log(formatMatrix(matrixOutput, baseline));
          }
          const exitCode = determineMatrixExitCode(matrixOutput, baseline);
          process.exit(exitCode);
        }
      } else {
        throw new Error("Expected 1 or 2 run workspaces or run manifests");
      }
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
  }
});

// src/commands/convert/index.ts
import { readFileSync, writeFileSync } from "node:fs";
import path2 from "node:path";
import { stringify as stringifyYaml } from "yaml";

// src/commands/eval/html-writer.ts
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
var HtmlWriter = class _HtmlWriter {
  filePath;
  results = [];
  mutex = new Mutex();
  closed = false;
  isLive = true;
  constructor(filePath) {
    this.filePath = filePath;
  }
  static async open(filePath) {
    await mkdir(path.dirname(filePath), { recursive: true });
    const writer = new _HtmlWriter(filePath);
    await writer.writeHtml();
    return writer;
  }
  async append(result) {
    await this.mutex.runExclusive(async () => {
      if (this.closed) {
        throw new Error("Cannot write to closed HTML writer");
      }
      this.results.push(result);
      await this.writeHtml();
    });
  }
  async close() {
    await this.mutex.runExclusive(async () => {
      if (this.closed) {
        return;
      }
      this.closed = true;
      this.isLive = false;
      await this.writeHtml();
    });
  }
  async writeHtml() {
    const html = generateHtml(this.results, this.isLive);
    await writeFile(this.filePath, html, "utf8");
  }
};
function generateHtml(results, isLive) {
  const lightResults = results.map((r) => {
    const { requests, trace, ...rest } = r;
    return rest;
  });
  const dataJson = JSON.stringify(lightResults).replace(/<\//g, "<\\/");
  const metaRefresh = isLive ? '    <meta http-equiv="refresh" content="2">\n' : "";
  const liveIndicator = isLive ? '<span class="live-badge">\u25CF LIVE</span>' : `<span class="timestamp">${escapeHtml((/* @__PURE__ */ new Date()).toISOString())}</span>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
${metaRefresh}    <title>AgentV Evaluation Report</title>
    <style>
${STYLES}
    </style>
</head>
<body>
    <header class="header">
        <div class="header-left">
            <h1 class="header-title" aria-label="AgentV">
                <span class="brand-letter" aria-hidden="true">A</span><span class="brand-middle" aria-hidden="true">GENT</span><span class="brand-letter" aria-hidden="true">V</span>
            </h1>
            <span class="header-subtitle">Evaluation Report</span>
        </div>
        <div class="header-right">${liveIndicator}</div>
    </header>
    <nav class="tabs" id="tabs">
        <button class="tab active" data-tab="overview">Overview</button>
        <button class="tab" data-tab="tests">Test Cases</button>
    </nav>
    <main id="app"></main>
    <script>
    var DATA = ${dataJson};
    var IS_LIVE = ${String(isLive)};
${SCRIPT}
    </script>
</body>
</html>`;
}
function escapeHtml(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
var STYLES = `
*{margin:0;padding:0;box-sizing:border-box}
:root{
  --bg:#f6f8fa;--surface:#fff;--border:#d0d7de;--border-light:#e8ebee;
  --text:#1f2328;--text-muted:#656d76;--brand-middle:#656d76;
  --primary:#0969da;--primary-bg:#ddf4ff;
  --success:#1a7f37;--success-bg:#dafbe1;
  --danger:#cf222e;--danger-bg:#ffebe9;
  --warning:#9a6700;--warning-bg:#fff8c5;
  --radius:6px;
  --shadow:0 1px 3px rgba(31,35,40,.04),0 1px 2px rgba(31,35,40,.06);
  --font:-apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif;
  --mono:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,monospace;
}
body{font-family:var(--font);background:var(--bg);color:var(--text);line-height:1.5;font-size:14px}

/* Header */
.header{background:var(--surface);border-bottom:1px solid var(--border);padding:12px 24px;display:flex;align-items:center;justify-content:space-between}
.header-left{display:flex;align-items:baseline;gap:12px}
.header-title{font-size:18px;font-weight:600}
.brand-letter{color:var(--primary)}
.brand-middle{color:var(--brand-middle)}
.header-subtitle{font-size:14px;color:var(--text-muted)}
.live-badge{color:var(--success);font-size:12px;font-weight:600;animation:pulse 2s infinite}
@keyframes pulse{0%,100%{opacity:1}50%{opacity:.4}}
.timestamp{font-size:12px;color:var(--text-muted);font-family:var(--mono)}

/* Tabs */
.tabs{background:var(--surface);border-bottom:1px solid var(--border);padding:0 24px;display:flex}
.tab{background:none;border:none;padding:10px 16px;font-size:14px;color:var(--text-muted);cursor:pointer;border-bottom:2px solid transparent;font-family:var(--font);transition:color .15s,border-color .15s}
.tab:hover{color:var(--text)}
.tab.active{color:var(--text);font-weight:600;border-bottom-color:var(--primary)}

#app{max-width:1280px;margin:0 auto;padding:24px}

/* Stat cards */
.stats-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:12px;margin-bottom:24px}
.stat-card{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);padding:16px;text-align:center;box-shadow:var(--shadow)}
.stat-card.pass .stat-value{color:var(--success)}
.stat-card.fail .stat-value{color:var(--danger)}
.stat-card.error .stat-value{color:var(--danger)}
.stat-card.warn .stat-value{color:var(--warning)}
.stat-card.total .stat-value{color:var(--primary)}
.stat-value{font-size:28px;font-weight:700;line-height:1.2}
.stat-label{font-size:12px;color:var(--text-muted);text-transform:uppercase;letter-spacing:.5px;margin-top:4px}

/* Sections */
.section{margin-bottom:24px}
.section-title{font-size:16px;font-weight:600;margin-bottom:12px}

/* Tables */
.table-wrap{overflow-x:auto;background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);box-shadow:var(--shadow)}
.data-table{width:100%;border-collapse:collapse;font-size:13px}
.data-table th{background:var(--bg);border-bottom:1px solid var(--border);padding:8px 12px;text-align:left;font-weight:600;font-size:12px;color:var(--text-muted);text-transform:uppercase;letter-spacing:.3px;white-space:nowrap}
.data-table th.sortable{cursor:pointer;user-select:none}
.data-table th.sortable:hover{color:var(--text)}
.data-table td{padding:8px 12px;border-bottom:1px solid var(--border-light);vertical-align:middle}
.data-table tbody tr:last-child td{border-bottom:none}

/* Status icons */
.status-icon{display:inline-flex;align-items:center;justify-content:center;width:22px;height:22px;border-radius:50%;font-size:12px;font-weight:700}
.status-icon.pass{background:var(--success-bg);color:var(--success)}
.status-icon.fail{background:var(--danger-bg);color:var(--danger)}
.status-icon.error{background:var(--warning-bg);color:var(--warning)}

/* Score colors */
.score-high{color:var(--success);font-weight:600}
.score-mid{color:var(--warning);font-weight:600}
.score-low{color:var(--danger);font-weight:600}

/* Pass-rate bar */
.bar-bg{width:100px;height:8px;background:var(--border-light);border-radius:4px;overflow:hidden}
.bar-fill{height:100%;border-radius:4px;transition:width .3s}
.bar-fill.score-high{background:var(--success)}
.bar-fill.score-mid{background:var(--warning)}
.bar-fill.score-low{background:var(--danger)}

/* Histogram */
.histogram{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);padding:16px;box-shadow:var(--shadow)}
.hist-row{display:flex;align-items:center;gap:12px;margin-bottom:8px}
.hist-row:last-child{margin-bottom:0}
.hist-label{width:60px;font-size:12px;color:var(--text-muted);text-align:right;flex-shrink:0}
.hist-bar-bg{flex:1;height:20px;background:var(--border-light);border-radius:3px;overflow:hidden}
.hist-bar{height:100%;border-radius:3px;transition:width .3s}
.hist-count{width:30px;font-size:12px;color:var(--text-muted);text-align:right;flex-shrink:0}

/* Filters */
.filter-bar{display:flex;gap:8px;margin-bottom:16px;align-items:center;flex-wrap:wrap}
.filter-select,.filter-search{padding:6px 10px;border:1px solid var(--border);border-radius:var(--radius);font-size:13px;background:var(--surface);color:var(--text);font-family:var(--font)}
.filter-search{flex:1;min-width:200px}
.filter-count{font-size:12px;color:var(--text-muted);margin-left:auto}

/* Test rows */
.test-row{cursor:pointer;transition:background .1s}
.test-row:hover{background:var(--bg)!important}
.test-row.expanded{background:var(--primary-bg)!important}
.expand-col{width:32px;text-align:center}
.expand-icon{color:var(--text-muted);font-size:12px}
.fw-medium{font-weight:500}
.text-pass{color:var(--success)}.text-fail{color:var(--danger)}.text-error{color:var(--warning)}

/* Detail panel */
.detail-row td{padding:0!important;background:var(--bg)!important}
.detail-panel{padding:16px 24px}
.detail-grid{display:grid;grid-template-columns:1fr 1fr;gap:16px;margin-bottom:16px}
.detail-block h4{font-size:12px;color:var(--text-muted);text-transform:uppercase;letter-spacing:.3px;margin-bottom:6px}
.detail-pre{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);padding:12px;font-family:var(--mono);font-size:12px;white-space:pre-wrap;word-break:break-word;max-height:300px;overflow-y:auto;line-height:1.6}
.detail-panel h4{font-size:13px;font-weight:600;margin:16px 0 8px}
.eval-table{width:100%;border-collapse:collapse;font-size:13px;background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);margin-bottom:12px}
.eval-table th{background:var(--bg);padding:6px 10px;text-align:left;font-size:11px;font-weight:600;color:var(--text-muted);text-transform:uppercase;border-bottom:1px solid var(--border)}
.eval-table td{padding:8px 10px;border-bottom:1px solid var(--border-light)}
.reasoning-cell{max-width:500px;font-size:12px;color:var(--text-muted)}
.expect-list{list-style:none;padding:0;margin-bottom:12px}
.expect-list li{padding:4px 8px 4px 24px;position:relative;font-size:13px}
.expect-list.pass li::before{content:"\\2713";position:absolute;left:4px;color:var(--success);font-weight:700}
.expect-list.fail li::before{content:"\\2717";position:absolute;left:4px;color:var(--danger);font-weight:700}
.error-box{background:var(--danger-bg);border:1px solid var(--danger);border-radius:var(--radius);padding:12px;margin-bottom:12px}
.error-box h4{color:var(--danger);margin:0 0 6px}
.error-box pre{font-family:var(--mono);font-size:12px;white-space:pre-wrap;word-break:break-word}
.detail-meta{font-size:12px;color:var(--text-muted);margin-top:12px;padding-top:12px;border-top:1px solid var(--border-light)}
.empty-state{text-align:center;padding:48px 24px;color:var(--text-muted)}
.empty-state h3{font-size:16px;margin-bottom:8px;color:var(--text)}
`;
var SCRIPT = `
(function(){
  /* ---- helpers ---- */
  function esc(s){
    if(s==null)return"";
    return String(s).replace(/&/g,"&amp;").replace(/</g,"&lt;").replace(/>/g,"&gt;").replace(/"/g,"&quot;");
  }
  function getStatus(r){
    if(r.executionStatus==="execution_error")return"error";
    if(r.executionStatus==="quality_failure")return"fail";
    if(r.executionStatus==="ok")return"pass";
    if(r.error)return"error";
    return r.score>=0.5?"pass":"fail";
  }
  function sIcon(s){
    if(s==="pass")return'<span class="status-icon pass">\\u2713</span>';
    if(s==="fail")return'<span class="status-icon fail">\\u2717</span>';
    return'<span class="status-icon error">!</span>';
  }
  function fmtDur(ms){
    if(ms==null)return"\\u2014";
    if(ms<1000)return ms+"ms";
    if(ms<60000)return(ms/1000).toFixed(1)+"s";
    return Math.floor(ms/60000)+"m "+Math.round((ms%60000)/1000)+"s";
  }
  function fmtTok(n){
    if(n==null)return"\\u2014";
    if(n>=1e6)return(n/1e6).toFixed(1)+"M";
    if(n>=1e3)return(n/1e3).toFixed(1)+"K";
    return String(n);
  }
  function fmtCost(u){if(u==null)return"\\u2014";if(u<0.01)return"<$0.01";return"$"+u.toFixed(2);}
  function fmtPct(v){if(v==null)return"\\u2014";return(v*100).toFixed(1)+"%";}
  function sCls(v){if(v==null)return"";if(v>=0.9)return"score-high";if(v>=0.5)return"score-mid";return"score-low";}

  /* ---- compute stats ---- */
  function computeStats(d){
    var t=d.length,p=0,f=0,e=0,dur=0,ti=0,to=0,cost=0,sc=[];
    for(var i=0;i<d.length;i++){
      var r=d[i],s=getStatus(r);
      if(s==="pass")p++;else if(s==="fail")f++;else e++;
      if(r.durationMs)dur+=r.durationMs;
      if(r.tokenUsage){ti+=(r.tokenUsage.input||0);to+=(r.tokenUsage.output||0);}
      if(r.costUsd)cost+=r.costUsd;
      if(s!=="error")sc.push(r.score);
    }
    var g=t-e;
    return{total:t,passed:p,failed:f,errors:e,passRate:g>0?p/g:0,dur:dur,tokens:ti+to,inTok:ti,outTok:to,cost:cost,scores:sc};
  }
  function computeTargets(d){
    var m={};
    for(var i=0;i<d.length;i++){
      var r=d[i],tgt=r.target||"unknown";
      if(!m[tgt])m[tgt]={target:tgt,results:[],p:0,f:0,e:0,ts:0,sc:0,dur:0,tok:0,cost:0};
      var o=m[tgt];o.results.push(r);
      var s=getStatus(r);
      if(s==="pass")o.p++;else if(s==="fail")o.f++;else o.e++;
      if(s!=="error"){o.ts+=r.score;o.sc++;}
      if(r.durationMs)o.dur+=r.durationMs;
      if(r.tokenUsage)o.tok+=(r.tokenUsage.input||0)+(r.tokenUsage.output||0);
      if(r.costUsd)o.cost+=r.costUsd;
    }
    var a=[];for(var k in m)a.push(m[k]);return a;
  }
  function getEvalNames(){
    var n={};
    for(var i=0;i<DATA.length;i++){
      var sc=DATA[i].scores;
      if(sc)for(var j=0;j<sc.length;j++)n[sc[j].name]=true;
    }
    return Object.keys(n);
  }
  function getEvalScore(r,name){
    if(!r.scores)return null;
    for(var i=0;i<r.scores.length;i++)if(r.scores[i].name===name)return r.scores[i].score;
    return null;
  }

  var stats=computeStats(DATA);
  var tgtStats=computeTargets(DATA);
  var tgtNames=tgtStats.map(function(t){return t.target;});

  /* ---- state ---- */
  var state={tab:"overview",filter:{status:"all",target:"all",search:""},sort:{col:"testId",dir:"asc"},expanded:{}};

  /* ---- DOM refs ---- */
  var app=document.getElementById("app");
  var tabBtns=document.querySelectorAll(".tab");

  /* ---- tabs ---- */
  function setTab(t){
    state.tab=t;
    for(var i=0;i<tabBtns.length;i++)tabBtns[i].classList.toggle("active",tabBtns[i].getAttribute("data-tab")===t);
    render();
  }
  for(var i=0;i<tabBtns.length;i++){
    tabBtns[i].addEventListener("click",(function(b){return function(){setTab(b.getAttribute("data-tab"));};})(tabBtns[i]));
  }

  /* ---- render ---- */
  function render(){
    if(DATA.length===0){app.innerHTML='<div class="empty-state"><h3>No results yet</h3><p>'+(IS_LIVE?"Waiting for evaluation results\\u2026 Page will auto-refresh.":"Run an evaluation to generate results.")+"</p></div>";return;}
    if(state.tab==="overview")renderOverview();else renderTests();
  }

  /* ---- stat card helper ---- */
  function card(label,value,type){
    return'<div class="stat-card '+type+'"><div class="stat-value">'+value+'</div><div class="stat-label">'+label+"</div></div>";
  }

  /* ---- overview ---- */
  function renderOverview(){
    var h='<div class="stats-grid">';
    h+=card("Total Tests",stats.total,"total");
    h+=card("Passed",stats.passed,"pass");
    h+=card("Failed",stats.failed,"fail");
    h+=card("Errors",stats.errors,"error");
    var prCls=stats.passRate>=0.9?"pass":stats.passRate>=0.5?"warn":"fail";
    h+=card("Pass Rate",fmtPct(stats.passRate),prCls);
    h+=card("Duration",fmtDur(stats.dur),"neutral");
    h+=card("Tokens",fmtTok(stats.tokens),"neutral");
    h+=card("Est. Cost",fmtCost(stats.cost),"neutral");
    h+="</div>";

    /* targets table */
    if(tgtStats.length>1){
      h+='<div class="section"><h2 class="section-title">Targets</h2><div class="table-wrap"><table class="data-table">';
      h+="<thead><tr><th>Target</th><th>Pass Rate</th><th></th><th>Passed</th><th>Failed</th><th>Errors</th><th>Avg Score</th><th>Duration</th><th>Tokens</th><th>Cost</th></tr></thead><tbody>";
      for(var i=0;i<tgtStats.length;i++){
        var t=tgtStats[i],g=t.p+t.f,pr=g>0?t.p/g:0,avg=t.sc>0?t.ts/t.sc:0;
        h+="<tr><td class=\\"fw-medium\\">"+esc(t.target)+"</td><td>"+fmtPct(pr)+'</td><td><div class="bar-bg"><div class="bar-fill '+sCls(pr)+'" style="width:'+(pr*100)+'%"></div></div></td>';
        h+='<td class="text-pass">'+t.p+'</td><td class="text-fail">'+t.f+'</td><td class="text-error">'+t.e+"</td>";
        h+='<td class="'+sCls(avg)+'">'+fmtPct(avg)+"</td><td>"+fmtDur(t.dur)+"</td><td>"+fmtTok(t.tok)+"</td><td>"+fmtCost(t.cost)+"</td></tr>";
      }
      h+="</tbody></table></div></div>";
    }

    /* histogram */
    if(stats.scores.length>0){
      var bk=[0,0,0,0,0];
      for(var i=0;i<stats.scores.length;i++){var idx=Math.min(Math.floor(stats.scores[i]*5),4);bk[idx]++;}
      var mx=Math.max.apply(null,bk);
      var lb=["0\\u201320%","20\\u201340%","40\\u201360%","60\\u201380%","80\\u2013100%"];
      h+='<div class="section"><h2 class="section-title">Score Distribution</h2><div class="histogram">';
      for(var i=0;i<bk.length;i++){
        var pct=mx>0?(bk[i]/mx*100):0;
        h+='<div class="hist-row"><span class="hist-label">'+lb[i]+'</span><div class="hist-bar-bg"><div class="hist-bar '+(i>=4?"score-high":i>=2?"score-mid":"score-low")+'" style="width:'+pct+'%"></div></div><span class="hist-count">'+bk[i]+"</span></div>";
      }
      h+="</div></div>";
    }
    app.innerHTML=h;
  }

  /* ---- test cases ---- */
  function renderTests(){
    var evalNames=getEvalNames();
    var h='<div class="filter-bar">';
    h+='<select id="flt-status" class="filter-select"><option value="all">All Status</option><option value="pass">Passed</option><option value="fail">Failed</option><option value="error">Errors</option></select>';
    if(tgtNames.length>1){
      h+='<select id="flt-target" class="filter-select"><option value="all">All Targets</option>';
      for(var i=0;i<tgtNames.length;i++)h+='<option value="'+esc(tgtNames[i])+'">'+esc(tgtNames[i])+"</option>";
      h+="</select>";
    }
    h+='<input type="text" id="flt-search" class="filter-search" placeholder="Search tests..." value="'+esc(state.filter.search)+'">';
    h+='<span class="filter-count" id="flt-count"></span></div>';

    h+='<div class="table-wrap"><table class="data-table" id="test-tbl"><thead><tr>';
    h+='<th class="expand-col"></th>';
    h+=sHdr("Status","status");
    h+=sHdr("Test ID","testId");
    if(tgtNames.length>1)h+=sHdr("Target","target");
    h+=sHdr("Score","score");
    for(var i=0;i<evalNames.length;i++)h+="<th>"+esc(evalNames[i])+"</th>";
    h+=sHdr("Duration","durationMs");
    h+=sHdr("Cost","costUsd");
    h+="</tr></thead><tbody id=\\"test-body\\"></tbody></table></div>";
    app.innerHTML=h;

    /* wire events */
    var selS=document.getElementById("flt-status");
    selS.value=state.filter.status;
    selS.addEventListener("change",function(e){state.filter.status=e.target.value;renderRows();});
    var selT=document.getElementById("flt-target");
    if(selT){selT.value=state.filter.target;selT.addEventListener("change",function(e){state.filter.target=e.target.value;renderRows();});}
    document.getElementById("flt-search").addEventListener("input",function(e){state.filter.search=e.target.value;renderRows();});
    var ths=document.querySelectorAll("th[data-sort]");
    for(var i=0;i<ths.length;i++){
      ths[i].addEventListener("click",(function(th){return function(){
        var c=th.getAttribute("data-sort");
        if(state.sort.col===c)state.sort.dir=state.sort.dir==="asc"?"desc":"asc";
        else{state.sort.col=c;state.sort.dir="asc";}
        renderTests();
      };})(ths[i]));
    }
    renderRows();
  }

  function sHdr(label,col){
    var arrow="";
    if(state.sort.col===col)arrow=state.sort.dir==="asc"?" \\u2191":" \\u2193";
    return'<th class="sortable" data-sort="'+col+'">'+label+arrow+"</th>";
  }

  function filtered(){
    var out=[];
    for(var i=0;i<DATA.length;i++){
      var r=DATA[i],s=getStatus(r);
      if(state.filter.status!=="all"&&s!==state.filter.status)continue;
      if(state.filter.target!=="all"&&r.target!==state.filter.target)continue;
      if(state.filter.search&&r.testId.toLowerCase().indexOf(state.filter.search.toLowerCase())===-1)continue;
      out.push(r);
    }
    var col=state.sort.col,dir=state.sort.dir==="asc"?1:-1;
    out.sort(function(a,b){
      var va=col==="status"?getStatus(a):a[col],vb=col==="status"?getStatus(b):b[col];
      if(va==null&&vb==null)return 0;if(va==null)return 1;if(vb==null)return-1;
      if(typeof va==="string")return va.localeCompare(vb)*dir;
      return(va-vb)*dir;
    });
    return out;
  }

  function renderRows(){
    var rows=filtered(),evalNames=getEvalNames();
    var tbody=document.getElementById("test-body");
    var colSpan=5+evalNames.length+(tgtNames.length>1?1:0);
    document.getElementById("flt-count").textContent=rows.length+" of "+DATA.length+" tests";
    var h="";
    for(var i=0;i<rows.length;i++){
      var r=rows[i],s=getStatus(r),key=r.testId+":"+r.target,exp=!!state.expanded[key];
      h+='<tr class="test-row '+s+(exp?" expanded":"")+'" data-key="'+esc(key)+'">';
      h+='<td class="expand-col"><span class="expand-icon">'+(exp?"\\u25BE":"\\u25B8")+"</span></td>";
      h+="<td>"+sIcon(s)+"</td>";
      h+='<td class="fw-medium">'+esc(r.testId)+"</td>";
      if(tgtNames.length>1)h+="<td>"+esc(r.target)+"</td>";
      h+='<td class="'+sCls(r.score)+'">'+fmtPct(r.score)+"</td>";
      for(var j=0;j<evalNames.length;j++){
        var es=getEvalScore(r,evalNames[j]);
        h+='<td class="'+sCls(es)+'">'+(es!=null?fmtPct(es):"\\u2014")+"</td>";
      }
      h+="<td>"+fmtDur(r.durationMs)+"</td><td>"+fmtCost(r.costUsd)+"</td></tr>";
      if(exp)h+='<tr class="detail-row"><td colspan="'+colSpan+'">'+renderDetail(r)+"</td></tr>";
    }
    if(rows.length===0)h+='<tr><td colspan="'+colSpan+'" class="empty-state">No matching tests</td></tr>';
    tbody.innerHTML=h;

    /* row click */
    var trs=tbody.querySelectorAll(".test-row");
    for(var k=0;k<trs.length;k++){
      trs[k].addEventListener("click",(function(tr){return function(){
        var key=tr.getAttribute("data-key");
        state.expanded[key]=!state.expanded[key];
        renderRows();
      };})(trs[k]));
    }
  }

  /* ---- detail panel ---- */
  function renderDetail(r){
    var h='<div class="detail-panel">';

    /* input / output */
    h+='<div class="detail-grid">';
    if(r.input!=null){
      h+='<div class="detail-block"><h4>Input</h4><pre class="detail-pre">'+esc(JSON.stringify(r.input,null,2))+"</pre></div>";
    }
    h+='<div class="detail-block"><h4>Output</h4><pre class="detail-pre">'+esc(r.output?JSON.stringify(r.output,null,2):"")+"</pre></div>";
    h+="</div>";

    /* grader results */
    if(r.scores&&r.scores.length>0){
      h+="<h4>Grader Results</h4>";
      h+='<table class="eval-table"><thead><tr><th>Grader</th><th>Score</th><th>Status</th><th>Assertions</th></tr></thead><tbody>';
      for(var i=0;i<r.scores.length;i++){
        var ev=r.scores[i],evS=ev.score>=0.5?"pass":"fail";
        var evAssertions=ev.assertions||[];
        var evSummary=evAssertions.map(function(a){return (a.passed?"\u2713 ":"\u2717 ")+a.text;}).join("; ");
        h+="<tr><td class=\\"fw-medium\\">"+esc(ev.name)+'</td><td class="'+sCls(ev.score)+'">'+fmtPct(ev.score)+"</td><td>"+sIcon(evS)+'</td><td class="reasoning-cell">'+esc(evSummary)+"</td></tr>";
      }
      h+="</tbody></table>";
    }

    /* assertions */
    var passedA=r.assertions?r.assertions.filter(function(a){return a.passed;}):[];
    var failedA=r.assertions?r.assertions.filter(function(a){return !a.passed;}):[];
    if(passedA.length>0){
      h+='<h4>Passed Assertions</h4><ul class="expect-list pass">';
      for(var i=0;i<passedA.length;i++)h+="<li>"+esc(passedA[i].text)+(passedA[i].evidence?" <span class=\\"reasoning-cell\\">("+esc(passedA[i].evidence)+")</span>":"")+"</li>";
      h+="</ul>";
    }
    if(failedA.length>0){
      h+='<h4>Failed Assertions</h4><ul class="expect-list fail">';
      for(var i=0;i<failedA.length;i++)h+="<li>"+esc(failedA[i].text)+(failedA[i].evidence?" <span class=\\"reasoning-cell\\">("+esc(failedA[i].evidence)+")</span>":"")+"</li>";
      h+="</ul>";
    }

    /* error */
    if(r.error)h+='<div class="error-box"><h4>Error</h4><pre>'+esc(r.error)+"</pre></div>";

    /* metadata */
    h+='<div class="detail-meta">';
    var m=[];
    if(r.tokenUsage)m.push(fmtTok(r.tokenUsage.input)+" in / "+fmtTok(r.tokenUsage.output)+" out tokens");
    if(r.durationMs)m.push(fmtDur(r.durationMs));
    if(r.target)m.push(r.target);
    if(r.costUsd)m.push(fmtCost(r.costUsd));
    if(r.timestamp)m.push(r.timestamp);
    h+=esc(m.join(" \\u00B7 "));
    h+="</div></div>";
    return h;
  }

  /* ---- init ---- */
  render();
})();
`;

// src/commands/convert/index.ts
function quoteYamlString(value) {
  return JSON.stringify(value);
}
function normalizeLineEndings(value) {
  return value.replace(/\r\n?/g, "\n");
}
async function convertJsonlToHtml(inputPath, outputPath) {
  const content = readFileSync(inputPath, "utf8");
  const lines = content.trim().split("\n").filter((line) => line.trim());
  const writer = await HtmlWriter.open(outputPath);
  for (const line of lines) {
    await writer.append(JSON.parse(line));
  }
  await writer.close();
  return lines.length;
}
function convertJsonlToYaml(inputPath, outputPath) {
  const content = readFileSync(inputPath, "utf8");
  const lines = content.trim().split("\n").filter((line) => line.trim());
  let yamlOutput = "";
  let isFirst = true;
  for (const line of lines) {
    const record = JSON.parse(line);
    const yamlDoc = stringifyYaml(record, {
      indent: 2,
      lineWidth: 0
    });
    const normalizedYaml = normalizeLineEndings(yamlDoc);
    const separator = isFirst ? "---\n" : "\n---\n";
    isFirst = false;
    yamlOutput += separator + normalizedYaml;
  }
  writeFileSync(outputPath, yamlOutput);
  return lines.length;
}
function convertEvalsJsonToYaml(inputPath) {
  const suite = readAgentSkillsEvalsFile(inputPath);
  const lines = [];
  lines.push("# Converted from Agent Skills evals.json");
  lines.push("# See: https://agentskills.io/skill-creation/evaluating-skills");
  lines.push("# Agent Skills expected_output is treated as expected outcome/rubric context,");
  lines.push("# not as AgentV expected_output reference data.");
  lines.push("#");
  lines.push("# AgentV features you can add:");
  lines.push("#   - type: is-json, contains, regex for deterministic graders");
  lines.push("#   - type: script for custom scoring scripts");
  lines.push("#   - type: llm-rubric value arrays with weights and score ranges for rubrics");
  lines.push("#   - Multi-turn conversations via input message arrays");
  lines.push("#   - Multiple assert entries with weighted scoring");
  lines.push("#   - Workspace isolation with repos and hooks");
  lines.push("");
  lines.push(`description: ${quoteYamlString(`Evals for ${suite.skillName} skill`)}`);
  lines.push("tags:");
  lines.push(`  skill: ${quoteYamlString(suite.skillName)}`);
  lines.push("metadata:");
  lines.push('  source_adapter: "agent-skills-evals-json"');
  lines.push("");
  lines.push("tests:");
  for (const test of suite.tests) {
    lines.push(`  - id: "${test.id}"`);
    lines.push("");
    if (test.expectedOutcome) {
      lines.push("    criteria: |-");
      for (const line of test.expectedOutcome.split("\n")) {
        lines.push(`      ${line}`);
      }
      lines.push("");
    }
    if (test.prompt.includes("\n")) {
      lines.push("    input: |-");
      for (const line of test.prompt.split("\n")) {
        lines.push(`      ${line}`);
      }
    } else {
      lines.push(`    input: ${quoteYamlString(test.prompt)}`);
    }
    lines.push("");
    if (test.files.length > 0) {
      lines.push("    input_files:");
      for (const file of test.files) {
        lines.push(`      - ${quoteYamlString(file)}`);
      }
      lines.push("");
    }
    if (test.criteria.length > 0) {
      lines.push(
        "    # Promoted from evals.json expected_output, assertions[], and expectations[]"
      );
      lines.push("    # Replace with type: is-json, contains, or regex for deterministic checks");
      lines.push("    assert:");
      lines.push("      - metric: agent-skills-criteria");
      lines.push("        type: llm-rubric");
      lines.push("        value:");
      for (const criterion of test.criteria) {
        lines.push(`          - id: ${quoteYamlString(criterion.id)}`);
        lines.push(`            outcome: ${quoteYamlString(criterion.outcome)}`);
        lines.push("            required: true");
      }
      lines.push("");
    }
  }
  return `${lines.join("\n")}
`;
}
var convertCommand = command({
  name: "convert",
  description: "Convert between evaluation formats (JSONL\u2192YAML, JSONL\u2192HTML, evals.json\u2192EVAL.yaml)",
  args: {
    input: positional({
      type: string,
      displayName: "input",
      description: "Path to input file (.jsonl or .json)"
    }),
    out: option({
      type: optional(string),
      long: "out",
      short: "o",
      description: "Output file path (defaults to stdout for evals.json, .yaml or .html for JSONL)"
    })
  },
  handler: async ({ input, out }) => {
    const ext = path2.extname(input).toLowerCase();
    if (ext === ".json") {
      try {
        const yaml = convertEvalsJsonToYaml(input);
        if (out) {
          writeFileSync(out, yaml);
          console.log(`Converted to ${path2.resolve(out)}`);
        } else {
          process.stdout.write(yaml);
        }
      } catch (error) {
        console.error(`Error: ${error.message}`);
        process.exit(1);
      }
      return;
    }
    if (ext === ".jsonl") {
      const outExt = out ? path2.extname(out).toLowerCase() : ".yaml";
      if (outExt === ".html" || outExt === ".htm") {
        const outputPath2 = out ?? input.replace(/\.jsonl$/, ".html");
        try {
          const count = await convertJsonlToHtml(input, outputPath2);
          console.log(`Converted ${count} records to ${path2.resolve(outputPath2)}`);
        } catch (error) {
          console.error(`Error: ${error.message}`);
          process.exit(1);
        }
        return;
      }
      const outputPath = out ?? input.replace(/\.jsonl$/, ".yaml");
      try {
        const count = convertJsonlToYaml(input, outputPath);
        console.log(`Converted ${count} records to ${path2.resolve(outputPath)}`);
      } catch (error) {
        console.error(`Error: ${error.message}`);
        process.exit(1);
      }
      return;
    }
    console.error(`Error: Unsupported input format '${ext}'. Supported: .json, .jsonl`);
    process.exit(1);
  }
});

// src/commands/create/commands.ts
import { mkdir as mkdir2, writeFile as writeFile2 } from "node:fs/promises";
import path3 from "node:path";
var ASSERTION_TEMPLATES = {
  default: `#!/usr/bin/env bun
import { defineAssertion } from '@agentv/sdk';

export default defineAssertion(({ output }) => {
  // TODO: Implement your assertion logic
  const text = output ?? '';
  const pass = text.length > 0;
  return {
    pass,
    score: pass ? 1 : 0,
    reason: pass ? 'Output has content' : 'Output is empty',
  };
});
`,
  score: `#!/usr/bin/env bun
import { defineAssertion } from '@agentv/sdk';

export default defineAssertion(({ output }) => {
  // TODO: Implement your scoring logic (0.0 to 1.0)
  const text = output ?? '';
  const score = text.length > 0 ? 1.0 : 0.0;
  return {
    pass: score >= 0.5,
    score,
    reason: score === 1.0 ? 'Output has content' : 'Output is empty',
    checks: [
      {
        text: 'Output has content',
        pass: score === 1.0,
        reason: score === 1.0 ? 'Output is non-empty' : 'Output is empty',
      },
    ],
  };
});
`
};
var EVAL_TEMPLATES = {
  default: (name) => `description: ${name} evaluation suite
target: default

tests:
  - id: sample-test
    criteria: Agent responds correctly
    input: "Hello, how are you?"
    expected_output: "I'm doing well"
    assert:
      - type: contains
        value: "well"
`,
  rubric: (name) => `description: ${name} evaluation suite
target: default

tests:
  - id: sample-test
    criteria: Agent responds correctly and completely
    input: "Hello, how are you?"
    expected_output: "I'm doing well, thank you for asking!"
    assert:
      - metric: response-quality
        type: llm-rubric
        value:
          - id: accuracy
            outcome: Response is factually correct
            weight: 0.6
          - id: completeness
            outcome: Response addresses all parts of the question
            weight: 0.4
`
};
var PROVIDER_TEMPLATE = `#!/usr/bin/env bun
/**
 * Custom provider scaffold.
 *
 * AgentV providers are configured via .agentv/targets.yaml using the CLI provider:
 *
 *   targets:
 *     - name: my-target
 *       provider: cli
 *       command: "bun run .agentv/providers/<name>.ts {PROMPT}"
 *
 * This script receives the prompt as a CLI argument and prints the response to stdout.
 */

const prompt = process.argv[2];

if (!prompt) {
  console.error('Usage: bun run provider.ts "<prompt>"');
  process.exit(1);
}

// TODO: Replace with your LLM API call or custom logic
const response = \`Echo: \${prompt}\`;

console.log(response);
`;
var EVAL_CASES_TEMPLATE = `{"id":"case-1","criteria":"Responds helpfully","input":"What is 2+2?","expected_output":"4"}
`;
var createAssertionCommand = command({
  name: "assertion",
  description: "Create a custom assertion scaffold",
  args: {
    name: positional({
      type: string,
      displayName: "name",
      description: "Name of the assertion (e.g., sentiment)"
    }),
    template: option({
      type: optional(string),
      long: "template",
      description: `Template variant (${Object.keys(ASSERTION_TEMPLATES).join(", ")})`
    })
  },
  handler: async ({ name, template }) => {
    const templateName = template ?? "default";
    const content = ASSERTION_TEMPLATES[templateName];
    if (!content) {
      console.error(
        `Unknown template "${templateName}". Available: ${Object.keys(ASSERTION_TEMPLATES).join(", ")}`
      );
      process.exit(1);
    }
    const dir = path3.join(process.cwd(), ".agentv", "assertions");
    const filePath = path3.join(dir, `${name}.ts`);
    await mkdir2(dir, { recursive: true });
    await writeFile2(filePath, content);
    console.log(`Created ${path3.relative(process.cwd(), filePath)} (template: ${templateName})`);
    console.log(`
Use in EVAL.yaml:
  assert:
    - type: ${name}`);
  }
});
var createProviderCommand = command({
  name: "provider",
  description: "Create a custom provider scaffold",
  args: {
    name: positional({
      type: string,
      displayName: "name",
      description: "Name of the provider (e.g., my-llm)"
    }),
    template: option({
      type: optional(string),
      long: "template",
      description: "Template variant (default)"
    })
  },
  handler: async ({ name, template }) => {
    const templateName = template ?? "default";
    if (templateName !== "default") {
      console.error(`Unknown template "${templateName}". Available: default`);
      process.exit(1);
    }
    const dir = path3.join(process.cwd(), ".agentv", "providers");
    const filePath = path3.join(dir, `${name}.ts`);
    await mkdir2(dir, { recursive: true });
    await writeFile2(filePath, PROVIDER_TEMPLATE);
    console.log(`Created ${path3.relative(process.cwd(), filePath)} (template: ${templateName})`);
    console.log(
      `
Configure in .agentv/targets.yaml:
  targets:
    - name: ${name}
      provider: cli
      command: "bun run .agentv/providers/${name}.ts {PROMPT}"`
    );
  }
});
var createEvalCommand = command({
  name: "eval",
  description: "Create an eval suite scaffold",
  args: {
    name: positional({
      type: string,
      displayName: "name",
      description: "Name of the eval suite (e.g., my-agent)"
    }),
    template: option({
      type: optional(string),
      long: "template",
      description: `Template variant (${Object.keys(EVAL_TEMPLATES).join(", ")})`
    })
  },
  handler: async ({ name, template }) => {
    const templateName = template ?? "default";
    const templateFn = EVAL_TEMPLATES[templateName];
    if (!templateFn) {
      console.error(
        `Unknown template "${templateName}". Available: ${Object.keys(EVAL_TEMPLATES).join(", ")}`
      );
      process.exit(1);
    }
    const dir = path3.join(process.cwd(), "evals");
    const yamlPath = path3.join(dir, `${name}.eval.yaml`);
    const casesPath = path3.join(dir, `${name}.cases.jsonl`);
    await mkdir2(dir, { recursive: true });
    await writeFile2(yamlPath, templateFn(name));
    await writeFile2(casesPath, EVAL_CASES_TEMPLATE);
    console.log(`Created ${path3.relative(process.cwd(), yamlPath)} (template: ${templateName})`);
    console.log(`Created ${path3.relative(process.cwd(), casesPath)}`);
    console.log(`
Run with:
  agentv eval ${path3.relative(process.cwd(), yamlPath)}`);
  }
});

// src/commands/create/index.ts
var createCommand = subcommands({
  name: "create",
  description: "Scaffold new AgentV components",
  cmds: {
    assertion: createAssertionCommand,
    eval: createEvalCommand,
    provider: createProviderCommand
  }
});

// src/commands/doctor/index.ts
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path4 from "node:path";
var DEPS = [];
function findBinary(name) {
  const localBin = path4.join(getAgentvConfigDir(), "bin", name);
  if (existsSync(localBin)) return localBin;
  const pathDirs = (process.env.PATH ?? "").split(path4.delimiter);
  for (const dir of pathDirs) {
    const candidate = path4.join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return void 0;
}
function getBinaryVersion(binaryPath) {
  try {
    const output = execFileSync(binaryPath, ["--version"], { stdio: "pipe", encoding: "utf-8" });
    return output.trim().split("\n")[0] ?? "unknown";
  } catch {
    return "unknown";
  }
}
var doctorCommand = command({
  name: "doctor",
  description: "Check external dependencies required by agentv",
  args: {},
  handler: () => {
    const binDir = path4.join(getAgentvConfigDir(), "bin");
    console.log("agentv doctor\n");
    console.log(`Local bin dir: ${binDir}
`);
    let allPresent = true;
    for (const dep of DEPS) {
      const binaryPath = findBinary(dep.name);
      if (binaryPath) {
        const version = getBinaryVersion(binaryPath);
        console.log(`  \u2713 ${dep.name}`);
        console.log(`      path:    ${binaryPath}`);
        console.log(`      version: ${version}`);
        console.log(`      note:    ${dep.description}`);
      } else {
        allPresent = false;
        console.log(`  \u2717 ${dep.name}  (not found)`);
        console.log(`      note:    ${dep.description}`);
        console.log(`      install: ${dep.installHint}`);
      }
      console.log();
    }
    if (!allPresent) {
      process.exit(1);
    }
  }
});

// src/commands/eval/commands/aggregate.ts
import path5 from "node:path";
var evalAggregateCommand = command({
  name: "aggregate",
  description: "Recompute summary.json from a run directory. Deduplicates by (test_id, target), keeping the last entry.",
  args: {
    runDir: positional({
      type: string,
      displayName: "run-dir",
      description: "Path to a run directory containing a run manifest"
    })
  },
  handler: async (args) => {
    const runDir = path5.resolve(args.runDir);
    const { summaryPath, testCount, targetCount } = await aggregateRunDir(runDir);
    console.log(`Aggregated ${testCount} test result(s) across ${targetCount} target(s)`);
    console.log(`  Summary: ${summaryPath}`);
  }
});

// src/commands/eval/commands/assert.ts
import { readFileSync as readFileSync2 } from "node:fs";
import path6 from "node:path";
import fg from "fast-glob";
var evalAssertCommand = command({
  name: "assert",
  description: "Run a single script grader assertion from .agentv/graders/ and print the score",
  args: {
    graderName: positional({
      type: string,
      displayName: "name",
      description: "Assertion name (matches filename without extension in .agentv/graders/)"
    }),
    agentOutput: option({
      type: optional(string),
      long: "agent-output",
      description: "The agent's full response text"
    }),
    agentInput: option({
      type: optional(string),
      long: "agent-input",
      description: "The original user prompt"
    }),
    file: option({
      type: optional(string),
      long: "file",
      description: "Path to JSON file with { output, input } fields"
    })
  },
  handler: async ({ graderName, agentOutput: output, agentInput: input, file }) => {
    let resolvedOutput;
    let resolvedInput;
    if (file) {
      const content = JSON.parse(readFileSync2(path6.resolve(file), "utf8"));
      resolvedOutput = content.output ?? "";
      resolvedInput = content.input ?? "";
    } else {
      if (output === void 0) {
        console.error("Error: --agent-output is required (or use --file)");
        process.exit(1);
      }
      resolvedOutput = output;
      resolvedInput = input ?? "";
    }
    if (!/^[a-zA-Z0-9_-]+$/.test(graderName)) {
      console.error(
        `Error: Invalid grader name '${graderName}' \u2014 only letters, digits, hyphens, and underscores allowed`
      );
      process.exit(1);
    }
    const scriptPath = await findGraderScript(graderName, process.cwd());
    if (!scriptPath) {
      console.error(
        `Error: Grader '${graderName}' not found in .agentv/graders/ (or .agentv/judges/)`
      );
      process.exit(1);
    }
    const messages = [{ role: "assistant", content: resolvedOutput }];
    const inputMessages = [{ role: "user", content: resolvedInput }];
    const trace = buildTraceFromMessages({
      input: inputMessages,
      output: messages,
      finalOutput: resolvedOutput
    });
    const payload = JSON.stringify(
      {
        output: resolvedOutput,
        answer: resolvedOutput,
        messages,
        input: inputMessages,
        question: resolvedInput,
        criteria: "",
        expected_output: [],
        input_files: [],
        trace,
        token_usage: null,
        cost_usd: null,
        duration_ms: null,
        start_time: null,
        end_time: null,
        file_changes: null,
        workspace_path: null,
        config: null,
        metadata: {}
      },
      null,
      2
    );
    try {
      const stdout = await executeScript(["bun", "run", scriptPath], payload);
      const parsed = JSON.parse(stdout);
      const score = typeof parsed.score === "number" ? parsed.score : 0;
      process.stdout.write(JSON.stringify(parsed, null, 2));
      process.stdout.write("\n");
      process.exit(score >= 0.5 ? 0 : 1);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`Error: ${message}`);
      process.exit(1);
    }
  }
});
async function findGraderScript(graderName, startDir) {
  let dir = path6.resolve(startDir);
  const root = path6.parse(dir).root;
  while (dir !== root) {
    for (const subdir of ["graders", "judges"]) {
      const gradersDir = path6.join(dir, ".agentv", subdir);
      const found = await fg([`${graderName}.{ts,js,mts,mjs}`], {
        cwd: gradersDir,
        absolute: true,
        onlyFiles: true
      });
      if (found.length > 0) return found[0];
    }
    dir = path6.dirname(dir);
  }
  return null;
}

// src/commands/eval/commands/bundle.ts
import path7 from "node:path";
function unique(values) {
  const result = [];
  const seen = /* @__PURE__ */ new Set();
  for (const value of values) {
    const trimmed = value.trim();
    if (!trimmed || seen.has(trimmed)) {
      continue;
    }
    seen.add(trimmed);
    result.push(trimmed);
  }
  return result;
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
function ensureTargetGraph(targetName2, definitions, targetsFilePath) {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const seen = /* @__PURE__ */ new Set();
  function visit(name, requestedBy) {
    if (seen.has(name)) {
      return;
    }
    const definition = byName.get(name);
    if (!definition) {
      const available = definitions.map((entry) => entry.name).sort().join(", ");
      const owner = requestedBy ? ` referenced by target '${requestedBy}'` : "";
      throw new Error(
        `Target '${name}'${owner} not found in ${targetsFilePath}. Available targets: ${available}`
      );
    }
    seen.add(name);
    for (const referenceName of targetReferenceNames(definition)) {
      visit(referenceName, name);
    }
  }
  visit(targetName2);
}
function definitionsWithEvalTargetRefs(definitions, targetRefs) {
  if (!targetRefs) {
    return definitions;
  }
  const result = [...definitions];
  for (const ref of targetRefs) {
    if (ref.definition && !result.some((definition) => definition.name === ref.name)) {
      result.push(ref.definition);
    } else if (ref.use_target && !result.some((definition) => definition.name === ref.name)) {
      result.push({ name: ref.name, use_target: ref.use_target });
    }
  }
  return result;
}
function definitionsWithEvalTargetSpec(definitions, targetSpec) {
  if (!targetSpec?.definition) {
    return definitions;
  }
  if (!targetSpec.extends) {
    return [
      targetSpec.definition,
      ...definitions.filter((definition) => definition.name !== targetSpec.name)
    ];
  }
  const base = definitions.find((definition) => definition.name === targetSpec.extends);
  if (!base) {
    const available = definitions.map((definition) => definition.name).join(", ");
    throw new Error(
      `Target '${targetSpec.extends}' not found for eval-local target '${targetSpec.name}'. Available targets: ${available}`
    );
  }
  const effective = {
    ...base,
    ...targetSpec.definition,
    name: targetSpec.name
  };
  return [effective, ...definitions.filter((definition) => definition.name !== targetSpec.name)];
}
function buildBundleRuntime(options) {
  const runtime = options.targetNames.length === 1 ? { target: options.targetNames[0] } : {};
  if (options.budgetUsd !== void 0) {
    runtime.budget_usd = options.budgetUsd;
  }
  if (options.threshold !== void 0) {
    runtime.threshold = options.threshold;
  }
  return runtime;
}
var evalBundleCommand = command({
  name: "bundle",
  description: "Create a portable self-contained directory for an eval suite",
  args: {
    evalPath: positional({
      type: string,
      displayName: "eval",
      description: "Path or glob resolving to one eval file"
    }),
    out: option({
      type: string,
      long: "out",
      description: "Portable bundle output directory"
    }),
    target: multioption({
      type: array(string),
      long: "target",
      description: "Target name to bundle (repeatable). Defaults to eval target(s) or default."
    }),
    targets: option({
      type: optional(string),
      long: "targets",
      description: "Path to targets.yaml (overrides discovery)"
    })
  },
  handler: async (args) => {
    const cwd = process.cwd();
    const repoRoot = await findRepoRoot(cwd);
    const resolvedPaths = await resolveEvalPaths([args.evalPath], cwd);
    if (resolvedPaths.length !== 1) {
      throw new Error(
        `agentv eval bundle requires exactly one eval file, but matched ${resolvedPaths.length}: ${resolvedPaths.join(", ")}`
      );
    }
    const evalFilePath = resolvedPaths[0];
    await loadEnvFromHierarchy({ testFilePath: evalFilePath, repoRoot, verbose: false });
    const suite = await loadTestSuite(evalFilePath, repoRoot);
    if (suite.providerFactory) {
      throw new Error(
        "TypeScript evals with task() provider functions cannot be bundled into portable YAML yet."
      );
    }
    let definitions;
    let targetNames;
    if (suite.inlineTarget) {
      definitions = [suite.inlineTarget];
      targetNames = unique(args.target.length > 0 ? args.target : [suite.inlineTarget.name]);
    } else {
      const targetsFilePath = await discoverTargetsFile({
        explicitPath: args.targets,
        testFilePath: evalFilePath,
        repoRoot,
        cwd
      });
      definitions = definitionsWithEvalTargetSpec(
        definitionsWithEvalTargetRefs(
          await readTargetDefinitions(targetsFilePath),
          suite.targetRefs
        ),
        suite.targetSpec
      );
      const suiteTarget = await readTestSuiteTarget(evalFilePath);
      targetNames = unique(
        args.target.length > 0 ? args.target : suite.targets ?? [suite.targetSpec?.name ?? suiteTarget ?? "default"]
      );
      for (const targetName2 of targetNames) {
        ensureTargetGraph(targetName2, definitions, targetsFilePath);
      }
    }
    const targetSelections = targetNames.map((targetName2) => ({
      evalFileAbsolutePath: evalFilePath,
      targetName: targetName2,
      definitions
    }));
    const paths = await materializeEvalBundle({
      evalFilePath,
      tests: suite.tests,
      targetSelections,
      outputDir: args.out,
      cwd,
      repoRoot,
      runtime: buildBundleRuntime({
        targetNames,
        budgetUsd: suite.budgetUsd,
        threshold: suite.threshold
      })
    });
    console.log(`Bundle written to: ${paths.bundleDir}`);
    console.log(
      `  Eval: ${path7.relative(paths.bundleDir, paths.evalPath).split(path7.sep).join("/")}`
    );
    console.log(
      `  Targets: ${path7.relative(paths.bundleDir, paths.targetsPath).split(path7.sep).join("/")}`
    );
    console.log(
      `  Manifest: ${path7.relative(paths.bundleDir, paths.manifestPath).split(path7.sep).join("/")}`
    );
  }
});

// src/commands/eval/commands/run.ts
var evalRunCommand = command({
  name: "eval",
  description: "Run eval suites and report results",
  args: {
    evalPaths: restPositionals({
      type: string,
      displayName: "eval-paths",
      description: "Path(s) or glob(s) to evaluation files (.yaml, .eval.ts)"
    }),
    target: multioption({
      type: array(string),
      long: "target",
      description: "Override target name(s) from targets.yaml (repeatable for matrix evaluation)"
    }),
    targets: option({
      type: optional(string),
      long: "targets",
      description: "Path to targets.yaml (overrides discovery)"
    }),
    testId: multioption({
      type: array(string),
      long: "test-id",
      description: "Filter tests by ID pattern (repeatable, OR logic; glob supported)"
    }),
    workers: option({
      type: optional(number),
      long: "workers",
      description: "Number of parallel test cases within each eval file (default: 3, max: 50). Eval files always run sequentially. Can also be set per-target in targets.yaml"
    }),
    out: option({
      type: optional(string),
      long: "out",
      description: "[Removed: use --output <dir>] Former flat result path"
    }),
    output: option({
      type: optional(string),
      long: "output",
      short: "o",
      description: "Run artifact directory (writes index.jsonl, summary.json, and per-case artifacts)"
    }),
    outputFormat: option({
      type: optional(string),
      long: "output-format",
      description: "[Removed] Run directories always write index.jsonl"
    }),
    experiment: option({
      type: optional(string),
      long: "experiment",
      description: "Experiment label for canonical run output (default: default)"
    }),
    resultsRepo: option({
      type: optional(string),
      long: "results-repo",
      description: "Results Git repo override: current/. for the source repo, a local path, Git URL, or owner/repo"
    }),
    resultsBranch: option({
      type: optional(string),
      long: "results-branch",
      description: "Results storage branch (default: agentv/results/v1)"
    }),
    resultsRemote: option({
      type: optional(string),
      long: "results-remote",
      description: "Advanced compatibility override: local Git remote name for results push/fetch"
    }),
    resultsPush: flag({
      long: "results-push",
      description: "Push the results branch after publishing the completed local run"
    }),
    noResultsPush: flag({
      long: "no-results-push",
      description: "Publish to the local results branch without pushing to the remote"
    }),
    resultsRequirePush: flag({
      long: "results-require-push",
      description: "Fail the eval command if the completed results branch cannot be pushed"
    }),
    agentTimeout: option({
      type: optional(number),
      long: "agent-timeout",
      description: "Optional top-level evaluation timeout in seconds. Unset by default."
    }),
    maxRetries: option({
      type: optional(number),
      long: "max-retries",
      description: "Retry count for timeout recoveries (default: 2)"
    }),
    cache: flag({
      long: "cache",
      description: "Enable provider response cache (persisted to disk)"
    }),
    cachePath: option({
      type: optional(string),
      long: "cache-path",
      description: "Enable provider response cache at the given directory"
    }),
    noCache: flag({
      long: "no-cache",
      description: "Disable response caching (overrides --cache, --cache-path, config, and YAML)"
    }),
    verbose: flag({
      long: "verbose",
      description: "Enable verbose logging"
    }),
    workspacePath: option({
      type: optional(string),
      long: "workspace-path",
      description: "Static workspace directory path to reuse for this run"
    }),
    keepWorkspaces: flag({
      long: "keep-workspaces",
      description: "Preserve per-test workspaces after eval (default: keep on failure, cleanup on success)"
    }),
    retryErrors: option({
      type: optional(string),
      long: "retry-errors",
      description: "Path to a previous run workspace or run manifest \u2014 re-run only execution_error test cases"
    }),
    resume: flag({
      long: "resume",
      description: "Resume an interrupted run: skip already-completed tests and append new results to --output dir"
    }),
    rerunFailed: option({
      type: optional(string),
      long: "rerun-failed",
      description: "Run ID, run workspace, or index.jsonl to rerun failed/errored tests while keeping passing results"
    }),
    strict: flag({
      long: "strict",
      description: "Exit with error on version mismatch (instead of warning)"
    }),
    artifacts: option({
      type: optional(string),
      long: "artifacts",
      description: "[Removed: use --output <dir>] Former companion artifact directory"
    }),
    graderTarget: option({
      type: optional(string),
      long: "grader-target",
      description: 'Override grader target for all evaluators (e.g., "agentv", or a target name from targets.yaml)'
    }),
    model: option({
      type: optional(string),
      long: "model",
      description: 'Override model for the grader target (e.g., "openai:gpt-5-mini")'
    }),
    outputMessages: option({
      type: optional(string),
      long: "output-messages",
      description: 'Number of trailing messages to include in results output (default: 1, or "all")'
    }),
    threshold: option({
      type: optional(number),
      long: "threshold",
      description: "Per-test score threshold (0-1, default 0.8). Exit 1 if any test scores below this value"
    }),
    budgetUsd: option({
      type: optional(number),
      long: "budget-usd",
      description: "Maximum total cost in USD across all eval files in this run. Stops dispatching new cases when exceeded."
    }),
    tag: multioption({
      type: array(string),
      long: "tag",
      description: "Repeatable. `--tag name` filters to eval files with that tag (AND logic). `--tag key=value` sets a promptfoo-shaped run tag; `--tag experiment=<name>` labels the experiment (CLI > project config > eval tags)."
    }),
    excludeTag: multioption({
      type: array(string),
      long: "exclude-tag",
      description: "Skip eval files that have this tag (repeatable, file skipped if any match)"
    }),
    transcript: option({
      type: optional(string),
      long: "transcript",
      description: "Grade a pre-recorded transcript JSONL instead of invoking a live provider. Ignores targets."
    }),
    recordReplay: option({
      type: optional(string),
      long: "record-replay",
      description: "Append live target outputs to a replay fixture JSONL file. Graders still run normally."
    }),
    recordReplayVariant: option({
      type: optional(string),
      long: "record-replay-variant",
      description: "Optional variant key to store with --record-replay fixture rows."
    })
  },
  handler: async (args) => {
    if (args.budgetUsd !== void 0 && args.budgetUsd <= 0) {
      console.error("Error: --budget-usd must be a positive number.");
      process.exit(2);
    }
    if (args.resultsPush && args.noResultsPush) {
      console.error("Error: --results-push and --no-results-push cannot be used together.");
      process.exit(2);
    }
    const rawOptions = {
      target: args.target,
      targets: args.targets,
      filter: args.testId,
      workers: args.workers,
      out: args.out,
      output: args.output,
      outputFormat: args.outputFormat,
      experiment: args.experiment,
      resultsRepo: args.resultsRepo,
      resultsBranch: args.resultsBranch,
      resultsRemote: args.resultsRemote,
      resultsPush: args.resultsPush,
      noResultsPush: args.noResultsPush,
      resultsRequirePush: args.resultsRequirePush,
      agentTimeout: args.agentTimeout,
      maxRetries: args.maxRetries,
      cache: args.cache,
      cachePath: args.cachePath,
      noCache: args.noCache,
      verbose: args.verbose,
      workspacePath: args.workspacePath,
      keepWorkspaces: args.keepWorkspaces,
      trace: false,
      retryErrors: args.retryErrors,
      resume: args.resume,
      rerunFailed: args.rerunFailed,
      strict: args.strict,
      artifacts: args.artifacts,
      graderTarget: args.graderTarget,
      model: args.model,
      outputMessages: args.outputMessages,
      threshold: args.threshold,
      budgetUsd: args.budgetUsd,
      tag: args.tag,
      excludeTag: args.excludeTag,
      transcript: args.transcript,
      recordReplay: args.recordReplay,
      recordReplayVariant: args.recordReplayVariant
    };
    const result = await runEvalCommand({ testFiles: args.evalPaths, rawOptions });
    if (result?.allExecutionErrors) {
      process.exit(2);
    }
    if (result?.budgetExceeded) {
      process.exit(1);
    }
    if (result?.thresholdFailed) {
      process.exit(1);
    }
  }
});

// ../../packages/sdk/dist/index.js
import { stringify as stringifyYaml2 } from "yaml";
import { readFileSync as readFileSync3 } from "node:fs";
import { spawn } from "node:child_process";
import { copyFile, mkdtemp, readFile as readFile2, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import nodePath2 from "node:path";
var TokenUsageSchema = external_exports.object({
  input: external_exports.number(),
  output: external_exports.number(),
  cached: external_exports.number().optional(),
  reasoning: external_exports.number().optional()
});
var TraceSummarySchema = external_exports.object({
  eventCount: external_exports.number(),
  toolCalls: external_exports.record(external_exports.string(), external_exports.number()),
  errorCount: external_exports.number(),
  toolDurations: external_exports.record(external_exports.string(), external_exports.array(external_exports.number())).optional(),
  llmCallCount: external_exports.number().optional()
});
var TRACE_SOURCE_KINDS = [
  "agentv_run",
  "otlp",
  "phoenix",
  "langfuse",
  "pi_session",
  "imported_transcript",
  "compact_transcript"
];
var TRACE_EVENT_TYPES = [
  "message",
  "model_turn",
  "tool_call",
  "tool_result",
  "final_response",
  "error"
];
var TRACE_TOOL_STATUSES = ["ok", "error", "timeout", "cancelled", "unknown"];
var TRACE_REDACTION_LEVELS = ["none", "partial", "full"];
var MetadataSchema = external_exports.record(external_exports.string(), external_exports.unknown());
var TraceRedactionStateSchema = external_exports.object({
  level: external_exports.enum(TRACE_REDACTION_LEVELS),
  fields: external_exports.array(external_exports.string()).optional(),
  reason: external_exports.string().optional()
});
var TraceErrorSchema = external_exports.object({
  message: external_exports.string(),
  name: external_exports.string().optional(),
  code: external_exports.string().optional(),
  stack: external_exports.string().optional(),
  metadata: MetadataSchema.optional()
});
var TraceSourceSchema = external_exports.object({
  kind: external_exports.enum(TRACE_SOURCE_KINDS),
  path: external_exports.string().optional(),
  url: external_exports.string().optional(),
  provider: external_exports.string().optional(),
  format: external_exports.string().optional(),
  version: external_exports.string().optional(),
  metadata: MetadataSchema.optional()
});
var TraceSessionSchema = external_exports.object({
  sessionId: external_exports.string().optional(),
  conversationId: external_exports.string().optional(),
  cwd: external_exports.string().optional(),
  startedAt: external_exports.string().optional(),
  endedAt: external_exports.string().optional(),
  metadata: MetadataSchema.optional()
});
var TraceBranchSchema = external_exports.object({
  selectedLeafId: external_exports.string().optional(),
  selectedPathIds: external_exports.array(external_exports.string()).optional(),
  includedEventIds: external_exports.array(external_exports.string()).optional(),
  omittedEventIds: external_exports.array(external_exports.string()).optional(),
  selectionReason: external_exports.string().optional()
});
var TraceSourceRefSchema = external_exports.object({
  eventId: external_exports.string().optional(),
  messageId: external_exports.string().optional(),
  spanId: external_exports.string().optional(),
  traceId: external_exports.string().optional(),
  rawKind: external_exports.string().optional(),
  path: external_exports.string().optional(),
  line: external_exports.number().int().nonnegative().optional(),
  metadata: MetadataSchema.optional()
});
var TraceRawEvidenceSchema = external_exports.object({
  kind: external_exports.string(),
  ref: external_exports.string().optional(),
  mediaType: external_exports.string().optional(),
  content: external_exports.unknown().optional(),
  redacted: external_exports.boolean().optional(),
  metadata: MetadataSchema.optional()
});
var TraceMessageSchema = external_exports.object({
  role: external_exports.string(),
  name: external_exports.string().optional(),
  content: external_exports.unknown().optional(),
  redaction: TraceRedactionStateSchema.optional(),
  tokenUsage: TokenUsageSchema.optional(),
  metadata: MetadataSchema.optional()
});
var TraceModelSchema = external_exports.object({
  provider: external_exports.string().optional(),
  name: external_exports.string().optional(),
  invocationId: external_exports.string().optional(),
  tokenUsage: TokenUsageSchema.optional(),
  metadata: MetadataSchema.optional()
});
var TraceToolSchema = external_exports.object({
  name: external_exports.string(),
  callId: external_exports.string().optional(),
  input: external_exports.unknown().optional(),
  output: external_exports.unknown().optional(),
  status: external_exports.enum(TRACE_TOOL_STATUSES).optional(),
  error: TraceErrorSchema.optional(),
  redaction: TraceRedactionStateSchema.optional(),
  metadata: MetadataSchema.optional()
});
var TraceEventSchema = external_exports.object({
  eventId: external_exports.string(),
  parentEventId: external_exports.string().optional(),
  ordinal: external_exports.number().int().nonnegative(),
  type: external_exports.enum(TRACE_EVENT_TYPES),
  timestamp: external_exports.string().optional(),
  durationMs: external_exports.number().nonnegative().optional(),
  durationInferred: external_exports.boolean().optional(),
  turnIndex: external_exports.number().int().nonnegative().optional(),
  message: TraceMessageSchema.optional(),
  model: TraceModelSchema.optional(),
  tool: TraceToolSchema.optional(),
  error: TraceErrorSchema.optional(),
  sourceRef: TraceSourceRefSchema.optional(),
  rawEvidence: external_exports.array(TraceRawEvidenceSchema).optional(),
  redaction: TraceRedactionStateSchema.optional(),
  metadata: MetadataSchema.optional()
});
var TraceArtifactSchema = external_exports.object({
  source: TraceSourceSchema,
  session: TraceSessionSchema,
  branch: TraceBranchSchema.optional(),
  events: external_exports.array(TraceEventSchema),
  tokenUsage: TokenUsageSchema.optional(),
  costUsd: external_exports.number().optional(),
  durationMs: external_exports.number().optional(),
  startedAt: external_exports.string().optional(),
  endedAt: external_exports.string().optional(),
  metadata: MetadataSchema.optional()
});
var ToolCallSchema = external_exports.object({
  tool: external_exports.string(),
  input: external_exports.unknown().optional(),
  output: external_exports.unknown().optional(),
  id: external_exports.string().optional(),
  startTime: external_exports.string().optional(),
  endTime: external_exports.string().optional(),
  durationMs: external_exports.number().optional()
});
var ContentTextSchema = external_exports.object({
  type: external_exports.literal("text"),
  text: external_exports.string()
});
var ContentImageSchema = external_exports.object({
  type: external_exports.literal("image"),
  media_type: external_exports.string(),
  path: external_exports.string()
});
var ContentFileSchema = external_exports.object({
  type: external_exports.literal("file"),
  media_type: external_exports.string(),
  path: external_exports.string()
});
var ContentSchema = external_exports.discriminatedUnion("type", [
  ContentTextSchema,
  ContentImageSchema,
  ContentFileSchema
]);
var MessageContentBlockSchema = external_exports.union([ContentSchema, external_exports.record(external_exports.unknown())]);
var MessageSchema = external_exports.object({
  role: external_exports.enum(["assistant", "user", "system", "tool"]),
  content: external_exports.union([external_exports.string(), external_exports.array(MessageContentBlockSchema), external_exports.record(external_exports.unknown())]).optional(),
  toolCalls: external_exports.array(ToolCallSchema).optional(),
  name: external_exports.string().optional(),
  startTime: external_exports.string().optional(),
  endTime: external_exports.string().optional(),
  durationMs: external_exports.number().optional(),
  metadata: external_exports.record(external_exports.unknown()).optional()
});
var TraceSchema = TraceSummarySchema.extend({
  messages: external_exports.array(MessageSchema),
  events: external_exports.array(TraceEventSchema),
  tokenUsage: TokenUsageSchema.optional(),
  costUsd: external_exports.number().optional(),
  durationMs: external_exports.number().optional(),
  startTime: external_exports.string().optional(),
  endTime: external_exports.string().optional(),
  metadata: MetadataSchema.optional()
});
var ScriptGraderInputSchema = external_exports.object({
  criteria: external_exports.string(),
  expectedOutput: external_exports.array(MessageSchema),
  output: external_exports.string().nullable().optional(),
  messages: external_exports.array(MessageSchema).optional().default([]),
  /** Path to a temp file containing the output JSON (used for large payloads). */
  outputPath: external_exports.string().optional(),
  inputFiles: external_exports.array(external_exports.string()),
  input: external_exports.array(MessageSchema),
  metadata: external_exports.record(external_exports.unknown()).nullable().optional(),
  trace: TraceSchema.nullable().optional(),
  traceSummary: TraceSummarySchema.nullable().optional(),
  tokenUsage: TokenUsageSchema.nullable().optional(),
  costUsd: external_exports.number().nullable().optional(),
  durationMs: external_exports.number().nullable().optional(),
  startTime: external_exports.string().nullable().optional(),
  endTime: external_exports.string().nullable().optional(),
  fileChanges: external_exports.string().nullable().optional(),
  workspacePath: external_exports.string().nullable().optional(),
  config: external_exports.record(external_exports.unknown()).nullable().optional()
});
var ScriptGraderCheckSchema = external_exports.object({
  id: external_exports.string().optional(),
  text: external_exports.string(),
  pass: external_exports.boolean(),
  score: external_exports.number().min(0).max(1).optional(),
  reason: external_exports.string(),
  evidence: external_exports.string().optional()
});
var ScriptGraderResultSchema = external_exports.object({
  pass: external_exports.boolean(),
  score: external_exports.number().min(0).max(1),
  reason: external_exports.string(),
  checks: external_exports.array(ScriptGraderCheckSchema).optional().default([]),
  /** Optional structured details for domain-specific metrics (e.g., TP/TN/FP/FN counts, alignments). */
  details: external_exports.record(external_exports.unknown()).optional()
});
var EVAL_SUITE_SYMBOL = Symbol.for("@agentv/sdk/eval-suite");
var TO_EVAL_YAML_OBJECT_SYMBOL = Symbol.for("@agentv/sdk/to-eval-yaml-object");
function withCommon(config, options = {}) {
  return {
    ...options.metric !== void 0 ? { metric: options.metric } : {},
    ...config,
    ...options.weight !== void 0 ? { weight: options.weight } : {},
    ...options.required !== void 0 ? { required: options.required } : {},
    ...options.minScore !== void 0 ? { minScore: options.minScore } : {},
    ...options.negate !== void 0 ? { negate: options.negate } : {},
    ...options.transform !== void 0 ? { transform: options.transform } : {}
  };
}
function containsGrader(value, options) {
  return withCommon({ type: "contains", value }, options);
}
function equalsGrader(value, options) {
  return withCommon({ type: "equals", value }, options);
}
function exactGrader(value, options) {
  return equalsGrader(value, options);
}
function regexGrader(pattern, options = {}) {
  const value = pattern instanceof RegExp ? pattern.source : pattern;
  const flags = options.flags ?? (pattern instanceof RegExp ? pattern.flags : void 0);
  return withCommon(
    {
      type: "regex",
      value,
      ...flags ? { flags } : {}
    },
    options
  );
}
function isJsonGrader(options) {
  return withCommon({ type: "is-json" }, options);
}
function jsonGrader(options) {
  return isJsonGrader(options);
}
function llmRubricGrader(valueOrCriteria, options = {}) {
  return withCommon(
    {
      type: "llm-rubric",
      ...valueOrCriteria !== void 0 ? { value: valueOrCriteria } : {},
      ...options.prompt !== void 0 ? { prompt: options.prompt } : {},
      ...options.target !== void 0 ? { target: options.target } : {},
      ...options.config !== void 0 ? { config: options.config } : {},
      ...options.maxSteps !== void 0 ? { maxSteps: options.maxSteps } : {},
      ...options.temperature !== void 0 ? { temperature: options.temperature } : {}
    },
    options
  );
}
function llmGrader(options = {}) {
  return withCommon(
    {
      type: "llm-grader",
      ...options.prompt !== void 0 ? { prompt: options.prompt } : {},
      ...options.rubrics !== void 0 ? { rubrics: options.rubrics } : {},
      ...options.target !== void 0 ? { target: options.target } : {},
      ...options.config !== void 0 ? { config: options.config } : {},
      ...options.maxSteps !== void 0 ? { maxSteps: options.maxSteps } : {},
      ...options.temperature !== void 0 ? { temperature: options.temperature } : {}
    },
    options
  );
}
function codeGrader(command2, options = {}) {
  return scriptGrader(command2, options);
}
function scriptGrader(command2, options = {}) {
  return withCommon(
    {
      type: "script",
      command: command2,
      ...options.cwd !== void 0 ? { cwd: options.cwd } : {},
      ...options.target !== void 0 ? { target: options.target } : {},
      ...options.config !== void 0 ? { config: options.config } : {}
    },
    options
  );
}
var graders = Object.freeze({
  contains: containsGrader,
  equals: equalsGrader,
  exact: exactGrader,
  regex: regexGrader,
  isJson: isJsonGrader,
  json: jsonGrader,
  llmRubric: llmRubricGrader,
  llmGrader,
  codeGrader,
  script: scriptGrader,
  scriptGrader
});
function enrichInput(input) {
  return input;
}
function readStdin() {
  return readFileSync3(0, "utf8");
}
function clampScore(value) {
  if (Number.isNaN(value) || !Number.isFinite(value)) {
    return 0;
  }
  return Math.max(0, Math.min(1, value));
}
function formatError(error) {
  if (error instanceof Error) {
    return error.message;
  }
  return String(error);
}
async function runScriptGrader(handler) {
  try {
    const stdin = readStdin();
    const rawInput = JSON.parse(stdin);
    const camelInput = toCamelCaseDeep(rawInput);
    const input = ScriptGraderInputSchema.parse(camelInput);
    if (input.outputPath && (input.output === null || input.output === void 0)) {
      let cachedOutput;
      const filePath = input.outputPath;
      Object.defineProperty(input, "output", {
        get() {
          if (cachedOutput === void 0) {
            cachedOutput = JSON.parse(readFileSync3(filePath, "utf8"));
          }
          return cachedOutput;
        },
        configurable: true,
        enumerable: true
      });
    }
    enrichInput(input);
    const rawResult = await handler(input);
    const result = ScriptGraderResultSchema.parse({
      ...rawResult,
      score: clampScore(rawResult.score),
      checks: rawResult.checks?.map((check2) => ({
        ...check2,
        ...check2.score !== void 0 ? { score: clampScore(check2.score) } : {}
      }))
    });
    console.log(JSON.stringify(result, null, 2));
  } catch (error) {
    const errorMessage = formatError(error);
    const errorResult = {
      pass: false,
      score: 0,
      reason: `Evaluation failed: ${errorMessage}`,
      checks: [
        {
          text: "Script grader execution",
          pass: false,
          reason: errorMessage
        }
      ]
    };
    console.log(JSON.stringify(errorResult, null, 2));
    process.exit(1);
  }
}
function workspacePathFrom2(input) {
  const workspacePath = input.workspacePath ?? process.env.AGENTV_WORKSPACE_PATH;
  return workspacePath?.trim() ? workspacePath : void 0;
}
function truncate(value, maxLength = 2e3) {
  if (value.length <= maxLength) {
    return value;
  }
  return `${value.slice(0, maxLength)}
...(truncated)`;
}
function resolveInsideWorkspace(workspacePath, relativePath, label, options = {}) {
  if (!relativePath.trim()) {
    throw new Error(`${label} must not be empty.`);
  }
  if (nodePath2.isAbsolute(relativePath)) {
    throw new Error(`${label} must be relative to the workspace: ${relativePath}`);
  }
  const root = nodePath2.resolve(workspacePath);
  const resolvedPath = nodePath2.resolve(root, relativePath);
  const relativeToRoot = nodePath2.relative(root, resolvedPath);
  if (relativeToRoot === "" && options.allowRoot === true) {
    return resolvedPath;
  }
  if (relativeToRoot === "" || relativeToRoot.startsWith("..") || nodePath2.isAbsolute(relativeToRoot)) {
    throw new Error(`${label} must stay inside the workspace: ${relativePath}`);
  }
  return resolvedPath;
}
function normalizeTestFiles(testFile) {
  if (testFile === void 0) {
    return [];
  }
  return typeof testFile === "string" ? [testFile] : [...testFile];
}
function buildCommand(options, testFiles = normalizeTestFiles(options.testFile)) {
  if (options.command && options.command.length > 0) {
    return [...options.command];
  }
  const command2 = [...options.vitestCommand ?? ["bunx", "vitest", "run"]];
  command2.push(...testFiles);
  return command2;
}
function parseJsonObjectFromText(text) {
  const trimmed = text.trim();
  if (!trimmed) {
    return void 0;
  }
  try {
    return JSON.parse(trimmed);
  } catch {
    const start = trimmed.indexOf("{");
    const end = trimmed.lastIndexOf("}");
    if (start >= 0 && end > start) {
      return JSON.parse(trimmed.slice(start, end + 1));
    }
    throw new Error("Vitest output did not contain a JSON object.");
  }
}
function isVitestJsonReport(value) {
  return typeof value === "object" && value !== null && Array.isArray(value.testResults);
}
function assertionText(file, assertion) {
  const title = assertion.fullName ?? [...assertion.ancestorTitles ?? [], assertion.title].filter(Boolean).join(" ");
  return title || file.name || "Vitest assertion";
}
function vitestReportToScriptGraderResult(report, options = {}) {
  const checks = (report.testResults ?? []).flatMap(
    (file) => (file.assertionResults ?? []).map((item) => {
      const pass2 = item.status === "passed";
      const evidence = item.failureMessages && item.failureMessages.length > 0 ? truncate(item.failureMessages.join("\n\n")) : void 0;
      return {
        text: assertionText(file, item),
        pass: pass2,
        reason: pass2 ? "Vitest test passed." : "Vitest test failed.",
        ...evidence !== void 0 ? { evidence } : {}
      };
    })
  );
  if (checks.length === 0) {
    const pass2 = options.passWithNoTests === true;
    return ScriptGraderResultSchema.parse({
      pass: pass2,
      score: pass2 ? 1 : 0,
      reason: pass2 ? "Vitest reported no tests; configured to pass." : "Vitest reported no tests.",
      checks: [
        {
          text: "Vitest reported no tests",
          pass: pass2,
          reason: pass2 ? "passWithNoTests is enabled." : "No Vitest tests were discovered."
        }
      ],
      details: {
        vitest_success: report.success ?? false,
        num_total_tests: report.numTotalTests ?? 0,
        num_passed_tests: report.numPassedTests ?? 0,
        num_failed_tests: report.numFailedTests ?? 0,
        num_pending_tests: report.numPendingTests ?? 0,
        num_todo_tests: report.numTodoTests ?? 0
      }
    });
  }
  const passedCount = checks.filter((item) => item.pass).length;
  const pass = passedCount === checks.length;
  return ScriptGraderResultSchema.parse({
    pass,
    score: passedCount / checks.length,
    reason: `${passedCount}/${checks.length} Vitest tests passed.`,
    checks,
    details: {
      vitest_success: report.success ?? pass,
      num_total_tests: report.numTotalTests ?? checks.length,
      num_passed_tests: report.numPassedTests ?? passedCount,
      num_failed_tests: report.numFailedTests ?? checks.length - passedCount,
      num_pending_tests: report.numPendingTests ?? 0,
      num_todo_tests: report.numTodoTests ?? 0
    }
  });
}
function runCommand(command2, options) {
  if (command2.length === 0) {
    return Promise.reject(new Error("Vitest command must not be empty."));
  }
  return new Promise((resolve3, reject) => {
    const child = spawn(command2[0], command2.slice(1), {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"]
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timeout = options.timeoutMs !== void 0 ? setTimeout(() => {
      timedOut = true;
      child.kill("SIGTERM");
    }, options.timeoutMs) : void 0;
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (exitCode) => {
      if (timeout) {
        clearTimeout(timeout);
      }
      if (timedOut) {
        reject(new Error(`Vitest command timed out after ${options.timeoutMs}ms.`));
        return;
      }
      resolve3({ exitCode, stdout, stderr });
    });
  });
}
function resolveSourceTestFile(testFileRoot, testFile) {
  if (!testFile.trim()) {
    throw new Error("testFile entries must not be empty.");
  }
  return nodePath2.isAbsolute(testFile) ? nodePath2.resolve(testFile) : nodePath2.resolve(testFileRoot, testFile);
}
async function copyTestFilesIntoWorkspace(testFiles, options, cwd) {
  if (testFiles.length === 0) {
    return { testFiles };
  }
  const tempDir = await mkdtemp(nodePath2.join(cwd, ".agentv-vitest-"));
  const testFileRoot = nodePath2.resolve(options.testFileRoot ?? process.cwd());
  const copiedFiles = await Promise.all(
    testFiles.map(async (testFile, index) => {
      const sourcePath = resolveSourceTestFile(testFileRoot, testFile);
      const destinationPath = nodePath2.join(tempDir, `${index}-${nodePath2.basename(testFile)}`);
      await copyFile(sourcePath, destinationPath);
      return nodePath2.relative(cwd, destinationPath);
    })
  );
  return { testFiles: copiedFiles, tempDir };
}
async function readVitestReport(commandResult, outputFile) {
  const rawReport = outputFile !== void 0 ? await readFile2(outputFile, "utf8") : commandResult.stdout;
  const parsed = parseJsonObjectFromText(rawReport);
  if (!isVitestJsonReport(parsed)) {
    throw new Error("Vitest JSON report did not include testResults[].");
  }
  return parsed;
}
async function runVitestWorkspaceGrader(options, input) {
  const workspacePath = workspacePathFrom2(input);
  if (!workspacePath) {
    return {
      pass: false,
      score: 0,
      reason: "Vitest workspace verifier requires workspace_path.",
      checks: [
        {
          text: "Vitest workspace verifier requires workspace_path",
          pass: false,
          reason: "Configure an environment recipe in the eval YAML so AgentV can pass workspace_path."
        }
      ]
    };
  }
  const tempDirs = [];
  try {
    const cwd = options.cwd ? resolveInsideWorkspace(workspacePath, options.cwd, "cwd", { allowRoot: true }) : workspacePath;
    const testFiles = normalizeTestFiles(options.testFile);
    const preparedTestFiles = options.copyTestFilesToWorkspace === true ? await copyTestFilesIntoWorkspace(testFiles, options, cwd) : { testFiles };
    if (preparedTestFiles.tempDir) {
      tempDirs.push(preparedTestFiles.tempDir);
    }
    const command2 = buildCommand(options, preparedTestFiles.testFiles);
    const appendReporterArgs = options.appendReporterArgs ?? options.command === void 0;
    let outputFile = options.outputFile ? resolveInsideWorkspace(cwd, options.outputFile, "outputFile") : void 0;
    if (appendReporterArgs) {
      const tempDir = await mkdtemp(nodePath2.join(tmpdir(), "agentv-vitest-"));
      tempDirs.push(tempDir);
      outputFile = nodePath2.join(tempDir, "results.json");
      command2.push("--reporter=json", `--outputFile=${outputFile}`);
    }
    const result = await runCommand(command2, {
      cwd,
      timeoutMs: options.timeoutMs,
      env: {
        AGENTV_WORKSPACE_PATH: workspacePath,
        ...outputFile !== void 0 ? { AGENTV_VITEST_JSON_PATH: outputFile } : {},
        ...options.env
      }
    });
    const report = await readVitestReport(result, outputFile);
    return vitestReportToScriptGraderResult(report, options);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      pass: false,
      score: 0,
      reason: "Vitest workspace verifier failed to run.",
      checks: [
        {
          text: "Vitest workspace verifier failed to run",
          pass: false,
          reason
        }
      ]
    };
  } finally {
    for (const tempDir of tempDirs.reverse()) {
      await rm(tempDir, { recursive: true, force: true }).catch(() => {
      });
    }
  }
}

// src/commands/eval/commands/vitest.ts
function parseCommand(value) {
  const trimmed = value?.trim();
  return trimmed ? trimmed.split(/\s+/) : void 0;
}
var evalVitestCommand = command({
  name: "vitest",
  description: "Run Vitest workspace verifier files as an AgentV script grader adapter",
  args: {
    testFiles: restPositionals({
      type: string,
      displayName: "test-files",
      description: "Vitest verifier file(s) to run"
    }),
    cwd: option({
      type: optional(string),
      long: "cwd",
      description: "Workspace-relative directory where Vitest should run"
    }),
    vitestCommand: option({
      type: optional(string),
      long: "vitest-command",
      description: 'Vitest command to execute, defaults to "bunx vitest run"'
    }),
    timeoutMs: option({
      type: optional(number),
      long: "timeout-ms",
      description: "Timeout for the Vitest command in milliseconds"
    }),
    inWorkspace: flag({
      long: "in-workspace",
      description: "Treat test files as already present in the prepared workspace instead of copying them from the current directory"
    }),
    passWithNoTests: flag({
      long: "pass-with-no-tests",
      description: "Return score 1 when Vitest reports zero tests"
    })
  },
  handler: async ({ testFiles, cwd, vitestCommand, timeoutMs, inWorkspace, passWithNoTests }) => {
    await runScriptGrader((input) => {
      if (testFiles.length === 0) {
        throw new Error("Provide at least one Vitest verifier file.");
      }
      return runVitestWorkspaceGrader(
        {
          testFile: testFiles,
          cwd,
          vitestCommand: parseCommand(vitestCommand),
          timeoutMs,
          passWithNoTests,
          copyTestFilesToWorkspace: !inWorkspace,
          testFileRoot: process.cwd()
        },
        input
      );
    });
  }
});

// src/commands/eval/index.ts
var evalCommand = subcommands({
  name: "eval",
  description: "Evaluation commands. Shorthand: eval files run with `eval run`; verifier-looking test files run with `eval vitest`.",
  cmds: {
    run: evalRunCommand,
    assert: evalAssertCommand,
    aggregate: evalAggregateCommand,
    bundle: evalBundleCommand,
    vitest: evalVitestCommand
  }
});

// src/commands/grade/index.ts
import { readFile, stat } from "node:fs/promises";
import path8 from "node:path";
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function invalidManifest(manifestPath, message) {
  return new Error(`Invalid prepared manifest at ${manifestPath}: ${message}`);
}
function expectString(record, key, manifestPath) {
  const value = record[key];
  if (typeof value !== "string" || value.trim().length === 0) {
    throw invalidManifest(manifestPath, `missing non-empty string field '${key}'`);
  }
  return value;
}
function expectArray(record, key, manifestPath) {
  const value = record[key];
  if (!Array.isArray(value)) {
    throw invalidManifest(manifestPath, `missing array field '${key}'`);
  }
  return value;
}
function expectBaseline(value, manifestPath) {
  if (!isRecord(value)) {
    throw invalidManifest(manifestPath, "missing object field 'baseline'");
  }
  const status = value.status;
  if (status !== "initialized" && status !== "unavailable") {
    throw invalidManifest(
      manifestPath,
      "field 'baseline.status' must be 'initialized' or 'unavailable'"
    );
  }
  const commit = value.commit;
  if (commit !== void 0 && typeof commit !== "string") {
    throw invalidManifest(manifestPath, "field 'baseline.commit' must be a string");
  }
  if (status === "initialized" && (!commit || commit.trim().length === 0)) {
    throw invalidManifest(
      manifestPath,
      "field 'baseline.commit' is required when baseline.status is 'initialized'"
    );
  }
  return {
    status,
    ...typeof commit === "string" && commit.trim().length > 0 && { commit }
  };
}
function fromManifestWire(value, manifestPath) {
  if (!isRecord(value)) {
    throw invalidManifest(manifestPath, "expected a JSON object");
  }
  if (value.schema_version !== 1) {
    throw invalidManifest(manifestPath, "field 'schema_version' must be 1");
  }
  const setupStatus = value.setup_status;
  if (setupStatus !== "ok") {
    throw invalidManifest(manifestPath, "field 'setup_status' must be 'ok'");
  }
  const preparedDir = path8.dirname(manifestPath);
  const resolveManifestPath = (rawPath) => path8.isAbsolute(rawPath) ? rawPath : path8.resolve(preparedDir, rawPath);
  expectArray(value, "setup_steps", manifestPath);
  expectArray(value, "repo_pins", manifestPath);
  return {
    schemaVersion: 1,
    evalPath: resolveManifestPath(expectString(value, "eval_path", manifestPath)),
    testId: expectString(value, "test_id", manifestPath),
    target: expectString(value, "target", manifestPath),
    workspacePath: resolveManifestPath(expectString(value, "workspace_path", manifestPath)),
    promptPath: resolveManifestPath(expectString(value, "prompt_path", manifestPath)),
    setupStatus,
    baseline: expectBaseline(value.baseline, manifestPath),
    createdAt: expectString(value, "created_at", manifestPath),
    manifestPath,
    preparedDir
  };
}
async function resolvePreparedManifestPath(preparedPath) {
  const resolved = path8.resolve(preparedPath);
  try {
    const stats = await stat(resolved);
    return stats.isDirectory() ? path8.join(resolved, "agentv_prepare.json") : resolved;
  } catch {
    return path8.basename(resolved) === "agentv_prepare.json" ? resolved : path8.join(resolved, "agentv_prepare.json");
  }
}
async function readPreparedManifest(preparedPath) {
  const manifestPath = await resolvePreparedManifestPath(preparedPath);
  let raw;
  try {
    raw = await readFile(manifestPath, "utf8");
  } catch (error) {
    if (error.code === "ENOENT") {
      throw new Error(
        `Prepared manifest not found at ${manifestPath}. Run agentv prepare first and pass --prepared <dir>.`
      );
    }
    throw error;
  }
  let parsed;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`Invalid prepared manifest JSON at ${manifestPath}: ${message}`);
  }
  return fromManifestWire(parsed, manifestPath);
}
async function ensureDirectoryExists(dirPath, description) {
  try {
    const stats = await stat(dirPath);
    if (!stats.isDirectory()) {
      throw new Error(`${description} is not a directory: ${dirPath}`);
    }
  } catch (error) {
    if (error.code === "ENOENT") {
      throw new Error(`${description} not found: ${dirPath}`);
    }
    throw error;
  }
}
async function ensureFileExists(filePath, description) {
  try {
    const stats = await stat(filePath);
    if (!stats.isFile()) {
      throw new Error(`${description} is not a file: ${filePath}`);
    }
  } catch (error) {
    if (error.code === "ENOENT") {
      throw new Error(`${description} not found: ${filePath}`);
    }
    throw error;
  }
}
function assertMatchesManifest(options) {
  const commandEvalPath = path8.resolve(options.evalPath);
  if (path8.resolve(options.manifest.evalPath) !== commandEvalPath) {
    throw new Error(
      `Prepared manifest eval_path does not match command eval path: ${options.manifest.evalPath} !== ${commandEvalPath}`
    );
  }
  if (options.testId && options.testId !== options.manifest.testId) {
    throw new Error(
      `Prepared manifest test_id '${options.manifest.testId}' does not match --test-id '${options.testId}'`
    );
  }
  return options.testId ?? options.manifest.testId;
}
function toPreparedAttemptMetadata(manifest, tracePath) {
  return {
    source: "manual",
    manifestPath: manifest.manifestPath,
    preparedDir: manifest.preparedDir,
    workspacePath: manifest.workspacePath,
    promptPath: manifest.promptPath,
    ...tracePath !== void 0 && { tracePath },
    target: manifest.target,
    preparedAt: manifest.createdAt,
    setupStatus: manifest.setupStatus,
    baselineStatus: manifest.baseline.status,
    ...manifest.baseline.commit !== void 0 && { baselineCommit: manifest.baseline.commit }
  };
}
function toCommandOutputWire(result) {
  return {
    test_id: result.testId,
    target: result.target,
    score: result.score,
    execution_status: result.executionStatus,
    workspace_path: result.workspacePath,
    manifest_path: result.manifestPath,
    ...result.tracePath !== void 0 && { trace_path: result.tracePath },
    output_dir: result.outputDir,
    index_path: result.indexPath
  };
}
function printHumanOutput(result) {
  console.log(`Graded prepared attempt for ${result.testId} (${result.target})`);
  console.log(`Score: ${result.score.toFixed(3)} (${result.executionStatus})`);
  console.log(`Workspace: ${result.workspacePath}`);
  console.log(`Manifest: ${result.manifestPath}`);
  if (result.tracePath) {
    console.log(`Trace: ${result.tracePath}`);
  }
  console.log(`Artifact workspace: ${result.outputDir}`);
  console.log(`Run manifest: ${result.indexPath}`);
}
function isTraceEnvelopeDocument(value) {
  return isRecord(value) && value.schema_version === EXECUTION_TRACE_SCHEMA_VERSION;
}
function isTranscriptJsonLine(value) {
  return isRecord(value) && typeof value.test_id === "string" && typeof value.target === "string" && typeof value.message_index === "number" && isRecord(value.source);
}
function parseFirstJsonLine(raw) {
  const firstLine = raw.split(/\r?\n/).map((line) => line.trim()).find((line) => line.length > 0);
  if (!firstLine) {
    return void 0;
  }
  try {
    return JSON.parse(firstLine);
  } catch {
    return void 0;
  }
}
function looksLikeTraceEnvelopeJsonText(trimmed) {
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) {
    return false;
  }
  return trimmed.includes('"schema_version"') && trimmed.includes(JSON.stringify(EXECUTION_TRACE_SCHEMA_VERSION));
}
function traceEnvelopeRecordMatchesPreparedAttempt(record, options) {
  if (record.envelope.eval.testId !== options.testId) {
    return false;
  }
  const sourceTarget = record.envelope.eval.sourceTarget ?? record.envelope.eval.target;
  return sourceTarget === options.target || record.envelope.eval.target === options.target;
}
function selectTraceEnvelopeRecord(records, options) {
  if (records.length === 0) {
    throw new Error(`Trace file has no execution trace records: ${options.sourcePath}`);
  }
  const matchingTest = records.filter((record) => record.envelope.eval.testId === options.testId);
  const candidates = matchingTest.filter(
    (record) => traceEnvelopeRecordMatchesPreparedAttempt(record, options)
  );
  if (candidates.length === 1) {
    return candidates[0];
  }
  const detail = candidates.length === 0 ? matchingTest.length === 0 ? `no record matches test_id '${options.testId}'` : `${matchingTest.length} record(s) match test_id '${options.testId}' but none match target '${options.target}'` : `${candidates.length} records match test_id '${options.testId}' and target '${options.target}'`;
  throw new Error(
    `Trace file ${options.sourcePath} is ambiguous for prepared grading: ${detail}. Pass a single-record trace file or a file with one matching test/target record.`
  );
}
function traceFromEnvelopeRecord(record) {
  const summary = traceEnvelopeToTraceSummary(record.envelope);
  return buildTraceFromMessages({
    output: traceEnvelopeToTranscriptMessages(record.envelope),
    summary: summary.trace,
    tokenUsage: summary.tokenUsage,
    costUsd: summary.costUsd,
    durationMs: summary.durationMs,
    startTime: summary.startTime,
    endTime: summary.endTime,
    provider: record.envelope.source.provider,
    target: record.envelope.eval.target,
    testId: record.envelope.eval.testId,
    conversationId: record.envelope.eval.runId,
    metadata: {
      trace_source_path: record.sourcePath,
      trace_source_format: EXECUTION_TRACE_SCHEMA_VERSION,
      trace_artifact_id: record.envelope.artifactId,
      ...record.lineNumber !== void 0 && { trace_source_line: record.lineNumber }
    }
  });
}
function groupTranscriptLinesByTestTarget(lines) {
  const groups = /* @__PURE__ */ new Map();
  for (const line of lines) {
    const key = `${line.test_id}\0${line.target}`;
    const group = groups.get(key) ?? (() => {
      const created = { testId: line.test_id, target: line.target, lines: [] };
      groups.set(key, created);
      return created;
    })();
    group.lines.push(line);
  }
  return [...groups.values()];
}
function selectTranscriptLines(lines, options) {
  const groups = groupTranscriptLinesByTestTarget(lines);
  if (groups.length === 0) {
    throw new Error(`Trace file has no transcript rows: ${options.sourcePath}`);
  }
  const matchingTest = groups.filter((group) => group.testId === options.testId);
  const candidates = matchingTest.filter((group) => group.target === options.target);
  if (candidates.length === 1) {
    return candidates[0].lines;
  }
  const detail = candidates.length === 0 ? matchingTest.length === 0 ? `no transcript group matches test_id '${options.testId}'` : `${matchingTest.length} transcript group(s) match test_id '${options.testId}' but none match target '${options.target}'` : `${candidates.length} transcript groups match test_id '${options.testId}' and target '${options.target}'`;
  throw new Error(
    `Trace file ${options.sourcePath} is ambiguous for prepared grading: ${detail}. Pass a single-session transcript or a transcript with one matching test/target group.`
  );
}
async function readPreparedTrace(tracePath, options) {
  const sourcePath = path8.resolve(tracePath);
  const raw = await readFile(sourcePath, "utf8");
  const trimmed = raw.trim();
  if (trimmed.length === 0) {
    throw new Error(`Trace file is empty: ${sourcePath}`);
  }
  const firstLine = parseFirstJsonLine(raw);
  if (isTraceEnvelopeDocument(firstLine)) {
    const records = await readTraceEnvelopeReplayRecords(sourcePath);
    return {
      sourcePath,
      trace: traceFromEnvelopeRecord(
        selectTraceEnvelopeRecord(records, { sourcePath, ...options })
      )
    };
  }
  if (isTranscriptJsonLine(firstLine)) {
    const lines = selectTranscriptLines(await readTranscriptJsonl(sourcePath), {
      sourcePath,
      ...options
    });
    const trace = traceFromTranscriptJsonLines(lines);
    return {
      sourcePath,
      trace: {
        ...trace,
        metadata: {
          ...trace.metadata,
          trace_source_path: sourcePath,
          trace_source_format: "agentv.transcript.jsonl"
        }
      }
    };
  }
  if (looksLikeTraceEnvelopeJsonText(trimmed)) {
    const records = await readTraceEnvelopeReplayRecords(sourcePath);
    return {
      sourcePath,
      trace: traceFromEnvelopeRecord(
        selectTraceEnvelopeRecord(records, { sourcePath, ...options })
      )
    };
  }
  throw new Error(
    `Unsupported trace format at ${sourcePath}. Expected agentv.trace.v1 JSON/JSONL or AgentV transcript JSONL.`
  );
}
async function gradePreparedAttempt(options) {
  const manifest = await readPreparedManifest(options.preparedPath);
  const evalPath = path8.resolve(options.evalPath);
  const testId = assertMatchesManifest({ manifest, evalPath, testId: options.testId });
  await ensureDirectoryExists(manifest.workspacePath, "Prepared workspace");
  await ensureFileExists(manifest.promptPath, "Prepared prompt");
  const preparedTrace = options.tracePath !== void 0 ? await readPreparedTrace(options.tracePath, { testId, target: manifest.target }) : void 0;
  const evalDir = path8.dirname(evalPath);
  const repoRoot = await findRepoRoot(evalDir);
  await loadEnvFromHierarchy({ testFilePath: evalPath, repoRoot, verbose: !!options.verbose });
  const category = deriveCategory(path8.relative(process.cwd(), evalPath));
  const suite = await loadTestSuite(evalPath, repoRoot, { category });
  const test = suite.tests.find((candidate) => candidate.id === testId);
  if (!test) {
    throw new Error(`Test ID '${testId}' not found in ${evalPath}`);
  }
  const selections = await selectMultipleTargets({
    testFilePath: evalPath,
    repoRoot,
    cwd: process.cwd(),
    env: process.env,
    targetNames: [manifest.target],
    targetRefs: suite.targetRefs
  });
  const selection = selections[0];
  if (!selection) {
    throw new Error(`Target '${manifest.target}' could not be resolved`);
  }
  const target = {
    ...selection.resolvedTarget,
    name: manifest.target
  };
  const response = options.responsePath !== void 0 ? await readFile(path8.resolve(options.responsePath), "utf8") : void 0;
  const runDir = path8.resolve(
    options.outputDir ?? buildDefaultRunDir(process.cwd(), options.experiment)
  );
  const result = await gradePreparedEvalCase({
    evalCase: test,
    target,
    targets: selection.definitions,
    env: process.env,
    evalFilePath: evalPath,
    workspacePath: manifest.workspacePath,
    baselineCommit: manifest.baseline.commit,
    response,
    trace: preparedTrace?.trace,
    verbose: options.verbose,
    graderTarget: options.graderTarget,
    model: options.model,
    threshold: options.threshold ?? suite.threshold,
    preparedAttempt: toPreparedAttemptMetadata(manifest, preparedTrace?.sourcePath)
  });
  const artifacts = await writeArtifactsFromResults([result], runDir, {
    evalFile: evalPath,
    experiment: options.experiment,
    plannedTestCount: 1,
    sourceTests: [test]
  });
  return {
    testId,
    target: manifest.target,
    score: result.score,
    executionStatus: result.executionStatus,
    workspacePath: manifest.workspacePath,
    manifestPath: manifest.manifestPath,
    tracePath: preparedTrace?.sourcePath,
    outputDir: runDir,
    indexPath: artifacts.indexPath
  };
}
var gradeCommand = command({
  name: "grade",
  description: "Grade a prepared workspace attempt without running the target provider",
  args: {
    evalPath: positional({
      type: string,
      displayName: "eval",
      description: "Path to an eval file"
    }),
    testId: option({
      type: optional(string),
      long: "test-id",
      description: "Exact test ID to grade; defaults to agentv_prepare.json test_id"
    }),
    prepared: option({
      type: string,
      long: "prepared",
      description: "Prepared-attempt directory or agentv_prepare.json path"
    }),
    output: option({
      type: optional(string),
      long: "output",
      short: "o",
      description: "Run artifact directory (writes index.jsonl and per-test artifacts)"
    }),
    response: option({
      type: optional(string),
      long: "response",
      description: "Optional final response text file from the human or external agent"
    }),
    trace: option({
      type: optional(string),
      long: "trace",
      description: "Optional AgentV trace/session file for trace-aware graders (execution trace JSON/JSONL or transcript JSONL)"
    }),
    experiment: option({
      type: optional(string),
      long: "experiment",
      description: "Experiment label for canonical run output (default: default)"
    }),
    graderTarget: option({
      type: optional(string),
      long: "grader-target",
      description: 'Override grader target for all evaluators (e.g., "agentv", or a target name from targets.yaml)'
    }),
    model: option({
      type: optional(string),
      long: "model",
      description: 'Override model for the grader target (e.g., "openai:gpt-5-mini")'
    }),
    threshold: option({
      type: optional(number),
      long: "threshold",
      description: "Per-test score threshold (0-1, default 0.8 or suite threshold)"
    }),
    format: option({
      type: optional(oneOf(["text", "json"])),
      long: "format",
      description: "Output format: text (default) or json"
    })
  },
  handler: async ({
    evalPath,
    testId,
    prepared,
    output,
    response,
    trace,
    experiment,
    graderTarget,
    model,
    threshold,
    format
  }) => {
    const result = await gradePreparedAttempt({
      evalPath,
      testId,
      preparedPath: prepared,
      outputDir: output,
      responsePath: response,
      tracePath: trace,
      experiment,
      graderTarget,
      model,
      threshold,
      verbose: false
    });
    if (format === "json") {
      console.log(JSON.stringify(toCommandOutputWire(result), null, 2));
      return;
    }
    printHumanOutput(result);
  }
});

// src/commands/import/claude.ts
import { mkdir as mkdir3, writeFile as writeFile3 } from "node:fs/promises";
import path9 from "node:path";
var importClaudeCommand = command({
  name: "claude",
  description: "Import a Claude Code session transcript for offline grading",
  args: {
    sessionId: option({
      type: optional(string),
      long: "session-id",
      description: "UUID of the Claude Code session to import"
    }),
    projectPath: option({
      type: optional(string),
      long: "project-path",
      description: "Filter sessions by project path"
    }),
    output: option({
      type: optional(string),
      long: "output",
      short: "o",
      description: "Output file path (default: .agentv/transcripts/claude-<session-id-short>.jsonl)"
    }),
    testId: option({
      type: optional(string),
      long: "test-id",
      description: "Set the transcript test_id to match an eval test id"
    }),
    target: option({
      type: optional(string),
      long: "target",
      description: "Set the transcript target/source_target value (default: claude)"
    }),
    projectsDir: option({
      type: optional(string),
      long: "projects-dir",
      description: "Override the default ~/.claude/projects directory"
    }),
    list: flag({
      long: "list",
      description: "List available sessions instead of importing"
    })
  },
  handler: async ({ sessionId, projectPath, output, testId, target, projectsDir, list }) => {
    if (list) {
      const sessions = await discoverClaudeSessions({
        projectPath,
        projectsDir,
        limit: 20
      });
      if (sessions.length === 0) {
        console.log("No Claude Code sessions found.");
        return;
      }
      console.log(`Found ${sessions.length} session(s):
`);
      for (const session of sessions) {
        const age = formatAge(session.updatedAt);
        console.log(`  ${session.sessionId}  ${age}  ${session.projectDir}`);
      }
      return;
    }
    let sessionFilePath;
    if (sessionId) {
      const sessions = await discoverClaudeSessions({
        sessionId,
        projectPath,
        projectsDir,
        limit: 1
      });
      if (sessions.length === 0) {
        console.error(`Error: session ${sessionId} not found.`);
        process.exit(1);
      }
      sessionFilePath = sessions[0].filePath;
    } else {
      console.error(
        "Error: specify --session-id <uuid> to select a session. Use --list to see available sessions."
      );
      process.exit(1);
    }
    const rawJsonl = await readTranscriptFile(sessionFilePath);
    const transcript = parseClaudeSession(rawJsonl);
    const shortId = (sessionId ?? transcript.source.sessionId).slice(0, 8);
    const outputPath = output ?? path9.join(".agentv", "transcripts", `claude-${shortId}.jsonl`);
    await mkdir3(path9.dirname(outputPath), { recursive: true });
    const jsonLines = toTranscriptJsonLines(transcript, transcriptWriteOptions(testId, target));
    await writeFile3(
      outputPath,
      `${jsonLines.map((line) => JSON.stringify(line)).join("\n")}
`,
      "utf8"
    );
    const msgCount = transcript.messages.length;
    const toolCount = transcript.messages.reduce((sum, m) => sum + (m.toolCalls?.length ?? 0), 0);
    console.log(`Imported ${msgCount} messages (${toolCount} tool calls) \u2192 ${outputPath}`);
    if (transcript.source.model) {
      console.log(`  Model: ${transcript.source.model}`);
    }
    if (transcript.durationMs !== void 0) {
      console.log(`  Duration: ${formatDurationMs(transcript.durationMs)}`);
    }
    if (transcript.tokenUsage) {
      console.log(
        `  Tokens: ${transcript.tokenUsage.input} in / ${transcript.tokenUsage.output} out`
      );
    }
  }
});
function formatAge(date) {
  const diffMs = Date.now() - date.getTime();
  const diffMin = Math.floor(diffMs / 6e4);
  if (diffMin < 60) return `${diffMin}m ago`;
  const diffHours = Math.floor(diffMin / 60);
  if (diffHours < 24) return `${diffHours}h ago`;
  const diffDays = Math.floor(diffHours / 24);
  return `${diffDays}d ago`;
}
function transcriptWriteOptions(testId, target) {
  return {
    ...testId ? { testId } : {},
    ...target ? { target } : {}
  };
}
function formatDurationMs(ms) {
  if (ms < 1e3) return `${ms}ms`;
  const seconds = Math.floor(ms / 1e3);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  const remainingSeconds = seconds % 60;
  return `${minutes}m ${remainingSeconds}s`;
}

// src/commands/import/codex.ts
import { mkdir as mkdir4, writeFile as writeFile4 } from "node:fs/promises";
import path10 from "node:path";
var importCodexCommand = command({
  name: "codex",
  description: "Import a Codex CLI session transcript for offline grading",
  args: {
    sessionId: option({
      type: optional(string),
      long: "session-id",
      description: "UUID of the Codex CLI session to import"
    }),
    date: option({
      type: optional(string),
      long: "date",
      description: "Filter sessions by date (YYYY-MM-DD)"
    }),
    output: option({
      type: optional(string),
      long: "output",
      short: "o",
      description: "Output file path (default: .agentv/transcripts/codex-<timestamp>.jsonl)"
    }),
    testId: option({
      type: optional(string),
      long: "test-id",
      description: "Set the transcript test_id to match an eval test id"
    }),
    target: option({
      type: optional(string),
      long: "target",
      description: "Set the transcript target/source_target value (default: codex)"
    }),
    sessionsDir: option({
      type: optional(string),
      long: "sessions-dir",
      description: "Override the default ~/.codex/sessions directory"
    }),
    list: flag({
      long: "list",
      description: "List available sessions instead of importing"
    })
  },
  handler: async ({ sessionId, date, output, testId, target, sessionsDir, list }) => {
    if (list) {
      const sessions = await discoverCodexSessions({
        date,
        sessionsDir,
        limit: 20
      });
      if (sessions.length === 0) {
        console.log("No Codex CLI sessions found.");
        return;
      }
      console.log(`Found ${sessions.length} session(s):
`);
      for (const session2 of sessions) {
        const age = formatAge2(session2.updatedAt);
        console.log(`  ${session2.sessionId}  ${age}  ${session2.filename}`);
      }
      return;
    }
    let session;
    if (sessionId) {
      const sessions = await discoverCodexSessions({
        date,
        sessionsDir,
        limit: 100
      });
      const match = sessions.find((s) => s.sessionId === sessionId);
      if (!match) {
        console.error(`Error: session ${sessionId} not found.`);
        process.exit(1);
      }
      session = match;
    } else {
      console.error(
        "Error: specify --session-id <uuid> to select a session. Use --list to see available sessions."
      );
      process.exit(1);
    }
    const rawJsonl = await readTranscriptFile(session.filePath);
    const transcript = parseCodexSession(rawJsonl);
    const shortId = session.sessionId.slice(0, 8);
    const outputPath = output ?? path10.join(".agentv", "transcripts", `codex-${shortId}.jsonl`);
    await mkdir4(path10.dirname(outputPath), { recursive: true });
    const jsonLines = toTranscriptJsonLines(transcript, transcriptWriteOptions2(testId, target));
    await writeFile4(
      outputPath,
      `${jsonLines.map((line) => JSON.stringify(line)).join("\n")}
`,
      "utf8"
    );
    const msgCount = transcript.messages.length;
    const toolCount = transcript.messages.reduce((sum, m) => sum + (m.toolCalls?.length ?? 0), 0);
    console.log(`Imported ${msgCount} messages (${toolCount} tool calls) \u2192 ${outputPath}`);
    if (transcript.source.model) {
      console.log(`  Model: ${transcript.source.model}`);
    }
    if (transcript.durationMs !== void 0) {
      console.log(`  Duration: ${formatDurationMs2(transcript.durationMs)}`);
    }
  }
});
function formatAge2(date) {
  const diffMs = Date.now() - date.getTime();
  const diffMin = Math.floor(diffMs / 6e4);
  if (diffMin < 60) return `${diffMin}m ago`;
  const diffHours = Math.floor(diffMin / 60);
  if (diffHours < 24) return `${diffHours}h ago`;
  const diffDays = Math.floor(diffHours / 24);
  return `${diffDays}d ago`;
}
function transcriptWriteOptions2(testId, target) {
  return {
    ...testId ? { testId } : {},
    ...target ? { target } : {}
  };
}
function formatDurationMs2(ms) {
  if (ms < 1e3) return `${ms}ms`;
  const seconds = Math.floor(ms / 1e3);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  const remainingSeconds = seconds % 60;
  return `${minutes}m ${remainingSeconds}s`;
}

// src/commands/import/copilot.ts
import { mkdir as mkdir5, readFile as readFile3, writeFile as writeFile5 } from "node:fs/promises";
import path11 from "node:path";
var importCopilotCommand = command({
  name: "copilot",
  description: "Import a Copilot CLI session transcript for offline grading",
  args: {
    sessionId: option({
      type: optional(string),
      long: "session-id",
      description: "UUID of the Copilot CLI session to import"
    }),
    output: option({
      type: optional(string),
      long: "output",
      short: "o",
      description: "Output file path (default: .agentv/transcripts/copilot-<session-id-short>.jsonl)"
    }),
    testId: option({
      type: optional(string),
      long: "test-id",
      description: "Set the transcript test_id to match an eval test id"
    }),
    target: option({
      type: optional(string),
      long: "target",
      description: "Set the transcript target/source_target value (default: copilot)"
    }),
    sessionStateDir: option({
      type: optional(string),
      long: "session-state-dir",
      description: "Override the default ~/.copilot/session-state directory"
    }),
    list: flag({
      long: "list",
      description: "List available sessions instead of importing"
    })
  },
  handler: async ({ sessionId, output, testId, target, sessionStateDir, list }) => {
    if (list) {
      const sessions = await discoverCopilotSessions({
        sessionStateDir,
        limit: 20
      });
      if (sessions.length === 0) {
        console.log("No Copilot CLI sessions found.");
        return;
      }
      console.log(`Found ${sessions.length} session(s):
`);
      for (const session of sessions) {
        const age = formatAge3(session.updatedAt);
        const status = session.isActive ? " (active)" : "";
        console.log(`  ${session.sessionId}  ${age}  ${session.cwd}${status}`);
      }
      return;
    }
    let sessionDir;
    let resolvedSessionId;
    if (sessionId) {
      const sessions = await discoverCopilotSessions({
        sessionStateDir,
        limit: 100
      });
      const match = sessions.find((s) => s.sessionId === sessionId);
      if (!match) {
        console.error(`Error: session ${sessionId} not found.`);
        process.exit(1);
      }
      sessionDir = match.sessionDir;
      resolvedSessionId = sessionId;
    } else {
      console.error(
        "Error: specify --session-id <uuid> to select a session. Use --list to see available sessions."
      );
      process.exit(1);
    }
    const eventsPath = path11.join(sessionDir, "events.jsonl");
    const rawJsonl = await readFile3(eventsPath, "utf8");
    const parsed = parseCopilotEvents(rawJsonl);
    const transcript = {
      messages: parsed.messages,
      source: {
        provider: "copilot",
        sessionId: resolvedSessionId,
        cwd: parsed.meta.cwd,
        startedAt: parsed.meta.startedAt,
        model: parsed.meta.model
      },
      tokenUsage: parsed.tokenUsage,
      durationMs: parsed.durationMs,
      costUsd: null
    };
    const shortId = resolvedSessionId.slice(0, 8);
    const outputPath = output ?? path11.join(".agentv", "transcripts", `copilot-${shortId}.jsonl`);
    await mkdir5(path11.dirname(outputPath), { recursive: true });
    const jsonLines = toTranscriptJsonLines(transcript, transcriptWriteOptions3(testId, target));
    await writeFile5(
      outputPath,
      `${jsonLines.map((line) => JSON.stringify(line)).join("\n")}
`,
      "utf8"
    );
    const msgCount = transcript.messages.length;
    const toolCount = transcript.messages.reduce((sum, m) => sum + (m.toolCalls?.length ?? 0), 0);
    console.log(`Imported ${msgCount} messages (${toolCount} tool calls) \u2192 ${outputPath}`);
    if (transcript.source.model) {
      console.log(`  Model: ${transcript.source.model}`);
    }
    if (transcript.durationMs !== void 0) {
      console.log(`  Duration: ${formatDurationMs3(transcript.durationMs)}`);
    }
    if (transcript.tokenUsage) {
      console.log(
        `  Tokens: ${transcript.tokenUsage.input} in / ${transcript.tokenUsage.output} out`
      );
    }
  }
});
function formatAge3(date) {
  const diffMs = Date.now() - date.getTime();
  const diffMin = Math.floor(diffMs / 6e4);
  if (diffMin < 60) return `${diffMin}m ago`;
  const diffHours = Math.floor(diffMin / 60);
  if (diffHours < 24) return `${diffHours}h ago`;
  const diffDays = Math.floor(diffHours / 24);
  return `${diffDays}d ago`;
}
function transcriptWriteOptions3(testId, target) {
  return {
    ...testId ? { testId } : {},
    ...target ? { target } : {}
  };
}
function formatDurationMs3(ms) {
  if (ms < 1e3) return `${ms}ms`;
  const seconds = Math.floor(ms / 1e3);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  const remainingSeconds = seconds % 60;
  return `${minutes}m ${remainingSeconds}s`;
}

// src/commands/import/huggingface.ts
import { execFile } from "node:child_process";
import { existsSync as existsSync2 } from "node:fs";
import path12 from "node:path";
function findScript() {
  const candidates = [
    path12.resolve(__dirname, "..", "..", "..", "..", "..", "scripts", "import-huggingface.py"),
    path12.resolve(__dirname, "..", "..", "..", "..", "scripts", "import-huggingface.py"),
    path12.resolve(process.cwd(), "scripts", "import-huggingface.py")
  ];
  for (const candidate of candidates) {
    if (existsSync2(candidate)) return candidate;
  }
  return candidates[candidates.length - 1];
}
var importHuggingFaceCommand = command({
  name: "huggingface",
  description: "Import a HuggingFace dataset into AgentV EVAL.yaml format",
  args: {
    repo: option({
      type: string,
      long: "repo",
      description: "HuggingFace dataset repository (e.g. SWE-bench/SWE-bench_Verified)"
    }),
    split: option({
      type: optional(string),
      long: "split",
      description: "Dataset split to load (default: test)"
    }),
    limit: option({
      type: optional(number),
      long: "limit",
      description: "Maximum number of instances to import"
    }),
    output: option({
      type: optional(string),
      long: "output",
      short: "o",
      description: "Output directory for EVAL.yaml files (default: evals/)"
    })
  },
  handler: async ({ repo, split, limit, output }) => {
    const scriptPath = findScript();
    if (!existsSync2(scriptPath)) {
      console.error(`Error: Python script not found at ${scriptPath}`);
      console.error(
        "Make sure you are running from the agentv repository root, or install agentv from source."
      );
      process.exit(1);
    }
    const args = [scriptPath, "--repo", repo];
    if (split) args.push("--split", split);
    if (limit !== void 0) args.push("--limit", String(limit));
    if (output) args.push("--output", output);
    console.log(`Importing from HuggingFace: ${repo} (split=${split ?? "test"})...`);
    try {
      await new Promise((resolve3, reject) => {
        const child = execFile("uv", ["run", ...args], { maxBuffer: 50 * 1024 * 1024 }, (error) => {
          if (error) {
            reject(error);
          } else {
            resolve3();
          }
        });
        let stderrBuf = "";
        child.stderr?.on("data", (data) => {
          const chunk = data.toString();
          stderrBuf += chunk;
          process.stderr.write(data);
        });
        let stdout = "";
        child.stdout?.on("data", (data) => {
          stdout += data.toString();
        });
        child.on("close", (code) => {
          if (code === 0 && stdout.trim()) {
            try {
              const summary = JSON.parse(stdout.trim());
              console.log(
                `
Imported ${summary.files_created} eval(s) from ${summary.dataset} \u2192 ${summary.output_dir}/`
              );
            } catch {
              if (stdout.trim()) console.log(stdout.trim());
            }
          } else if (code !== 0) {
            const tail = stderrBuf.trim().slice(-2e3);
            if (tail) {
              console.error("\n--- import-huggingface.py stderr (last 2 000 chars) ---");
              console.error(tail);
            }
          }
        });
      });
    } catch (err2) {
      if (err2 instanceof Error && err2.code === "ENOENT") {
        console.error(
          "Error: `uv` is not installed or not found on PATH.\nInstall it with: curl -LsSf https://astral.sh/uv/install.sh | sh\nSee https://docs.astral.sh/uv/ for details."
        );
        process.exit(1);
      }
      throw err2;
    }
  }
});

// src/commands/import/index.ts
var importCommand = subcommands({
  name: "import",
  description: "Import agent session transcripts and datasets for offline grading",
  cmds: {
    claude: importClaudeCommand,
    codex: importCodexCommand,
    copilot: importCopilotCommand,
    huggingface: importHuggingFaceCommand
  }
});

// src/commands/init/index.ts
import { existsSync as existsSync3, mkdirSync, writeFileSync as writeFileSync2 } from "node:fs";
import path14 from "node:path";
import * as readline from "node:readline/promises";

// src/templates/index.ts
import { readFileSync as readFileSync4, readdirSync, statSync } from "node:fs";
import path13 from "node:path";
import { fileURLToPath } from "node:url";
function getAgentvTemplates() {
  return getTemplatesFromDir(".agentv");
}
function getEnvExampleTemplate() {
  const currentDir = path13.dirname(fileURLToPath(import.meta.url));
  const templatesBase = currentDir.includes(`${path13.sep}dist`) ? path13.join(currentDir, "templates") : currentDir;
  const content = readFileSync4(path13.join(templatesBase, ".env.example"), "utf-8");
  return { path: ".env.example", content };
}
function getTemplatesFromDir(subdir) {
  const currentDir = path13.dirname(fileURLToPath(import.meta.url));
  let templatesDir;
  if (currentDir.includes(`${path13.sep}dist`)) {
    templatesDir = path13.join(currentDir, "templates", subdir);
  } else {
    templatesDir = path13.join(currentDir, subdir);
  }
  return readTemplatesRecursively(templatesDir, "");
}
function readTemplatesRecursively(dir, relativePath) {
  const templates = [];
  const entries2 = readdirSync(dir);
  for (const entry of entries2) {
    const fullPath = path13.join(dir, entry);
    const stat3 = statSync(fullPath);
    const entryRelativePath = relativePath ? path13.join(relativePath, entry) : entry;
    if (stat3.isDirectory()) {
      templates.push(...readTemplatesRecursively(fullPath, entryRelativePath));
    } else {
      const content = readFileSync4(fullPath, "utf-8");
      templates.push({
        path: entryRelativePath.split(path13.sep).join("/"),
        // Normalize to forward slashes
        content
      });
    }
  }
  return templates;
}

// src/commands/init/index.ts
function printSkillFirstInstructions() {
  console.log("\nAI-skills-first setup (recommended):");
  console.log("  agentv skills get agentv-bench");
  console.log('  Then ask your agent: "Set up AgentV in this repo."');
  console.log("\nOr install the agentv-dev plugin for automatic skill discovery:");
  console.log("  npx allagents plugin marketplace add EntityProcess/agentv");
  console.log("  npx allagents plugin install agentv-dev@agentv");
}
async function promptYesNo(message) {
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout
  });
  try {
    const answer = await rl.question(`${message} (y/N): `);
    return answer.toLowerCase() === "y" || answer.toLowerCase() === "yes";
  } finally {
    rl.close();
  }
}
async function initCommand(options = {}) {
  const targetPath = path14.resolve(options.targetPath ?? ".");
  const agentvDir = path14.join(targetPath, ".agentv");
  const otherAgentvTemplates = getAgentvTemplates();
  const envTemplate = getEnvExampleTemplate();
  const existingFiles = [];
  if (envTemplate) {
    const envFilePath = path14.join(targetPath, ".env.example");
    if (existsSync3(envFilePath)) {
      existingFiles.push(".env.example");
    }
  }
  if (existsSync3(agentvDir)) {
    for (const template of otherAgentvTemplates) {
      const targetFilePath = path14.join(agentvDir, template.path);
      if (existsSync3(targetFilePath)) {
        existingFiles.push(path14.relative(targetPath, targetFilePath));
      }
    }
  }
  if (existingFiles.length > 0) {
    console.log("We detected an existing setup:");
    for (const file of existingFiles) {
      console.log(`  - ${file}`);
    }
    console.log();
    const shouldReplace = await promptYesNo("Do you want to replace these files?");
    if (!shouldReplace) {
      console.log("\nInit cancelled. No files were changed.");
      printSkillFirstInstructions();
      return;
    }
    console.log();
  }
  if (!existsSync3(agentvDir)) {
    mkdirSync(agentvDir, { recursive: true });
  }
  if (envTemplate) {
    const envFilePath = path14.join(targetPath, ".env.example");
    writeFileSync2(envFilePath, envTemplate.content, "utf-8");
    console.log("Created .env.example");
  }
  for (const template of otherAgentvTemplates) {
    const targetFilePath = path14.join(agentvDir, template.path);
    const targetDirPath = path14.dirname(targetFilePath);
    if (!existsSync3(targetDirPath)) {
      mkdirSync(targetDirPath, { recursive: true });
    }
    writeFileSync2(targetFilePath, template.content, "utf-8");
    console.log(`Created ${path14.relative(targetPath, targetFilePath)}`);
  }
  console.log("\nAgentV initialized successfully!");
  console.log("\nFiles installed to root:");
  if (envTemplate) {
    console.log("  - .env.example");
  }
  console.log(`
Files installed to ${path14.relative(targetPath, agentvDir)}:`);
  for (const t of otherAgentvTemplates) {
    console.log(`  - ${t.path}`);
  }
  console.log("\nYou can now:");
  console.log("  1. Copy .env.example to .env and add your API credentials");
  console.log("  2. Configure targets in .agentv/targets.yaml");
  console.log("  3. Use AI skills to create and run evals");
  printSkillFirstInstructions();
}
var initCmdTsCommand = command({
  name: "init",
  description: "Initialize AgentV bootstrap files in your project",
  args: {
    path: option({
      type: optional(string),
      long: "path",
      description: "Target directory for initialization (default: current directory)"
    })
  },
  handler: async ({ path: targetPath }) => {
    try {
      await initCommand({ targetPath });
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
  }
});

// src/commands/inspect/filter.ts
import { existsSync as existsSync4, readFileSync as readFileSync5, readdirSync as readdirSync2, statSync as statSync2 } from "node:fs";
import path15 from "node:path";
function collectIndexFiles(dir) {
  const primaryPath = resolveExistingRunPrimaryPath(dir);
  if (primaryPath) {
    return [primaryPath];
  }
  const files = [];
  try {
    const entries2 = readdirSync2(dir, { withFileTypes: true });
    for (const entry of entries2) {
      const fullPath = path15.join(dir, entry.name);
      if (entry.isDirectory()) {
        files.push(...collectIndexFiles(fullPath));
      }
    }
  } catch {
  }
  return files;
}
function collectCurrentResultIndexFiles(cwd) {
  const resultsDir = path15.join(cwd, ".agentv", "results");
  const files = [];
  try {
    const entries2 = readdirSync2(resultsDir, { withFileTypes: true });
    for (const entry of entries2) {
      if (isReservedResultsNamespace(entry.name)) continue;
      const fullPath = path15.join(resultsDir, entry.name);
      if (entry.isDirectory()) {
        files.push(...collectIndexFiles(fullPath));
      }
    }
  } catch {
  }
  return files;
}
function extractToolNames(record) {
  const tools = /* @__PURE__ */ new Set();
  const trace = record.trace;
  if (trace?.tool_calls && typeof trace.tool_calls === "object") {
    for (const name of Object.keys(trace.tool_calls)) {
      tools.add(name);
    }
  }
  const output = record.output;
  if (Array.isArray(output)) {
    for (const msg of output) {
      if (typeof msg === "object" && msg !== null && Array.isArray(msg.tool_calls)) {
        for (const tc of msg.tool_calls) {
          if (typeof tc.tool === "string") {
            tools.add(tc.tool);
          }
        }
      }
    }
  }
  return [...tools];
}
function inferExperimentFromPath(filePath) {
  const parts = filePath.split(path15.sep);
  const resultsIdx = parts.lastIndexOf("results");
  if (resultsIdx === -1) return void 0;
  const runPath = parts.slice(resultsIdx + 1, -1);
  if (isReservedResultsNamespace(runPath[0])) return void 0;
  if (runPath.length < 2) return void 0;
  const candidate = runPath[0];
  if (candidate && !/^\d{4}-\d{2}-\d{2}T/.test(candidate)) {
    return candidate;
  }
  return void 0;
}
function parseFilterableRecords(filePath) {
  let content;
  try {
    content = readFileSync5(filePath, "utf8");
  } catch {
    return [];
  }
  const lines = content.split("\n").filter((line) => line.trim());
  const records = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let raw;
    try {
      raw = JSON.parse(line);
    } catch {
      continue;
    }
    raw = normalizeResultRow(raw, { lineNumber: i + 1, sourceLabel: filePath });
    let experiment = typeof raw.experiment === "string" ? raw.experiment : void 0;
    if (!experiment) {
      experiment = inferExperimentFromPath(filePath);
    }
    records.push({
      file: filePath,
      test_id: typeof raw.test_id === "string" ? raw.test_id : "unknown",
      suite: typeof raw.suite === "string" ? raw.suite : void 0,
      target: typeof raw.target === "string" ? raw.target : void 0,
      experiment,
      score: typeof raw.score === "number" ? raw.score : 0,
      execution_status: typeof raw.execution_status === "string" ? raw.execution_status : void 0,
      error: typeof raw.error === "string" ? raw.error : void 0,
      timestamp: typeof raw.timestamp === "string" ? raw.timestamp : void 0,
      tool_names: extractToolNames(raw)
    });
  }
  return records;
}
function buildFilterPredicate(opts) {
  return (record) => {
    if (opts.target && record.target !== opts.target) return false;
    if (opts.experiment && record.experiment !== opts.experiment) return false;
    if (opts.scoreBelow !== void 0 && record.score >= opts.scoreBelow) return false;
    if (opts.scoreAbove !== void 0 && record.score <= opts.scoreAbove) return false;
    if (opts.status) {
      const statusMap = {
        pass: ["ok"],
        fail: ["quality_failure"],
        error: ["error", "timeout", "provider_error"]
      };
      const allowedStatuses = statusMap[opts.status] ?? [opts.status];
      if (record.execution_status && !allowedStatuses.includes(record.execution_status))
        return false;
      if (!record.execution_status) {
        if (opts.status === "pass" && record.score < 1) return false;
        if (opts.status === "fail" && record.score >= 1) return false;
        if (opts.status === "error" && !record.error) return false;
      }
    }
    if (opts.hasTool) {
      const toolPattern = opts.hasTool.toLowerCase();
      const hasMatch = record.tool_names.some((t) => t.toLowerCase().includes(toolPattern));
      if (!hasMatch) return false;
    }
    return true;
  };
}
function discoverFilterSources(searchPath, cwd) {
  if (searchPath) {
    const resolved = path15.isAbsolute(searchPath) ? searchPath : path15.resolve(cwd, searchPath);
    if (!existsSync4(resolved)) {
      console.error(`${c.red}Error:${c.reset} Path does not exist: ${resolved}`);
      process.exit(1);
    }
    try {
      if (statSync2(resolved).isDirectory()) {
        return collectIndexFiles(resolved);
      }
    } catch {
    }
    return [resolved];
  }
  return collectCurrentResultIndexFiles(cwd);
}
function formatFilterTable(records) {
  const lines = [];
  if (records.length === 0) {
    lines.push(`${c.yellow}No matching results found.${c.reset}`);
    return lines.join("\n");
  }
  lines.push("");
  lines.push(
    `${c.bold}Filtered Results${c.reset} ${c.dim}(${records.length} match${records.length !== 1 ? "es" : ""})${c.reset}`
  );
  lines.push("");
  const maxIdLen = Math.min(32, Math.max(7, ...records.map((r) => r.test_id.length)));
  const maxTargetLen = Math.min(16, Math.max(6, ...records.map((r) => (r.target ?? "").length)));
  const maxExpLen = Math.min(20, Math.max(10, ...records.map((r) => (r.experiment ?? "").length)));
  const header = `  ${padRight("Test ID", maxIdLen)}  ${padRight("Target", maxTargetLen)}  ${padRight("Experiment", maxExpLen)}  ${padLeft("Score", 6)}  Status`;
  lines.push(`${c.dim}${header}${c.reset}`);
  lines.push(
    `${c.dim}  ${"\u2500".repeat(maxIdLen)}  ${"\u2500".repeat(maxTargetLen)}  ${"\u2500".repeat(maxExpLen)}  ${"\u2500".repeat(6)}  ${"\u2500".repeat(16)}${c.reset}`
  );
  for (const record of records) {
    const scoreColor = record.score >= 1 ? c.green : record.score >= 0.5 ? c.yellow : c.red;
    const status = record.execution_status ?? (record.error ? "error" : record.score >= 1 ? "ok" : "quality_failure");
    const statusColor = status === "ok" ? c.green : status === "error" ? c.red : c.yellow;
    const row = `  ${padRight(record.test_id.slice(0, maxIdLen), maxIdLen)}  ${padRight((record.target ?? "-").slice(0, maxTargetLen), maxTargetLen)}  ${padRight((record.experiment ?? "-").slice(0, maxExpLen), maxExpLen)}  ${padLeft(`${scoreColor}${formatScore(record.score)}${c.reset}`, 6)}  ${statusColor}${status}${c.reset}`;
    lines.push(row);
  }
  lines.push("");
  const passCount = records.filter((r) => r.score >= 1).length;
  const avgScore = records.length > 0 ? records.reduce((sum, r) => sum + r.score, 0) / records.length : 0;
  lines.push(
    `${c.dim}${records.length} result${records.length !== 1 ? "s" : ""} | ${passCount} passed | avg score: ${formatScore(avgScore)}${c.reset}`
  );
  lines.push("");
  return lines.join("\n");
}
var inspectFilterCommand = command({
  name: "filter",
  description: "Filter evaluation results by target, experiment, score, status, or tool usage",
  args: {
    path: positional({
      type: optional(string),
      displayName: "path",
      description: "Directory or file to filter (default: .agentv/results/)"
    }),
    target: option({
      type: optional(string),
      long: "target",
      description: "Filter by target name"
    }),
    experiment: option({
      type: optional(string),
      long: "experiment",
      description: "Filter by experiment name"
    }),
    scoreBelow: option({
      type: optional(number),
      long: "score-below",
      description: "Filter to results with score below this value"
    }),
    scoreAbove: option({
      type: optional(number),
      long: "score-above",
      description: "Filter to results with score above this value"
    }),
    status: option({
      type: optional(string),
      long: "status",
      description: "Filter by execution status: pass, fail, error (or raw value like ok, quality_failure)"
    }),
    hasTool: option({
      type: optional(string),
      long: "has-tool",
      description: "Filter to results that used a specific tool (substring match)"
    }),
    dir: option({
      type: optional(string),
      long: "dir",
      short: "d",
      description: "Working directory (default: current directory)"
    }),
    format: option({
      type: optional(oneOf(["table", "json"])),
      long: "format",
      short: "f",
      description: "Output format: table (default) or json"
    })
  },
  handler: async ({
    path: searchPath,
    target,
    experiment,
    scoreBelow,
    scoreAbove,
    status,
    hasTool,
    dir,
    format
  }) => {
    const cwd = dir ?? process.cwd();
    const sources = discoverFilterSources(searchPath, cwd);
    if (sources.length === 0) {
      console.error(`${c.yellow}No result files found.${c.reset}`);
      console.error(`${c.dim}Run an evaluation first, or specify a path.${c.reset}`);
      process.exit(0);
    }
    const allRecords = [];
    for (const source of sources) {
      allRecords.push(...parseFilterableRecords(source));
    }
    if (allRecords.length === 0) {
      console.error(`${c.yellow}No results found in the specified path.${c.reset}`);
      process.exit(0);
    }
    const predicate = buildFilterPredicate({
      target,
      experiment,
      scoreBelow,
      scoreAbove,
      status,
      hasTool
    });
    const filtered = allRecords.filter(predicate);
    if (format === "json") {
      console.log(JSON.stringify(filtered, null, 2));
    } else {
      console.log(formatFilterTable(filtered));
    }
  }
});

// src/commands/inspect/list.ts
function formatListTable(metas) {
  const lines = [];
  if (metas.length === 0) {
    lines.push(`${c.yellow}No run workspaces found in .agentv/results/${c.reset}`);
    lines.push(`${c.dim}Run an evaluation first: agentv run <eval-file>${c.reset}`);
    return lines.join("\n");
  }
  lines.push("");
  lines.push(`${c.bold}Evaluation Runs${c.reset} ${c.dim}(.agentv/results/)${c.reset}`);
  lines.push("");
  const maxFileLen = Math.max(4, ...metas.map((m) => m.filename.length));
  const header = `  ${padRight("File", maxFileLen)}  ${padLeft("Tests", 5)}  ${padLeft("Pass", 5)}  ${padLeft("Score", 6)}  ${padLeft("Size", 7)}  Timestamp`;
  lines.push(`${c.dim}${header}${c.reset}`);
  lines.push(
    `${c.dim}  ${"\u2500".repeat(maxFileLen)}  ${"\u2500".repeat(5)}  ${"\u2500".repeat(5)}  ${"\u2500".repeat(6)}  ${"\u2500".repeat(7)}  ${"\u2500".repeat(24)}${c.reset}`
  );
  for (const meta of metas) {
    const passColor = meta.passRate >= 1 ? c.green : meta.passRate >= 0.5 ? c.yellow : c.red;
    const scoreColor = meta.avgScore >= 0.9 ? c.green : meta.avgScore >= 0.5 ? c.yellow : c.red;
    const row = `  ${padRight(meta.filename, maxFileLen)}  ${padLeft(String(meta.testCount), 5)}  ${padLeft(`${passColor}${formatScore(meta.passRate)}${c.reset}`, 5)}  ${padLeft(`${scoreColor}${formatScore(meta.avgScore)}${c.reset}`, 6)}  ${padLeft(formatSize(meta.sizeBytes), 7)}  ${c.dim}${meta.timestamp}${c.reset}`;
    lines.push(row);
  }
  lines.push("");
  lines.push(
    `${c.dim}${metas.length} run workspace${metas.length !== 1 ? "s" : ""} found${c.reset}`
  );
  lines.push("");
  return lines.join("\n");
}
var traceListCommand = command({
  name: "list",
  description: "List recent evaluation run workspaces from .agentv/results/",
  args: {
    limit: option({
      type: optional(number),
      long: "limit",
      short: "n",
      description: "Maximum number of results to show (default: all)"
    }),
    format: option({
      type: optional(oneOf(["table", "json"])),
      long: "format",
      short: "f",
      description: "Output format: table (default) or json"
    }),
    dir: option({
      type: optional(string),
      long: "dir",
      short: "d",
      description: "Working directory (default: current directory)"
    })
  },
  handler: async ({ limit, format, dir }) => {
    const cwd = dir ?? process.cwd();
    const outputFormat = format ?? "table";
    try {
      const metas = listResultFiles(cwd, limit);
      if (outputFormat === "json") {
        console.log(JSON.stringify(toSnakeCaseDeep(metas), null, 2));
      } else {
        console.log(formatListTable(metas));
      }
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
  }
});

// src/commands/inspect/score.ts
var SUPPORTED_TYPES = [
  "contains",
  "regex",
  "is-json",
  "equals",
  "latency",
  "cost",
  "token-usage",
  "execution-metrics"
];
function parseKeyValues(s) {
  const result = {};
  if (!s) return result;
  for (const pair of s.split(",")) {
    const eqIdx = pair.indexOf("=");
    if (eqIdx === -1) continue;
    result[pair.slice(0, eqIdx).trim()] = pair.slice(eqIdx + 1).trim();
  }
  return result;
}
function parseAssertSpec(spec) {
  const colonIdx = spec.indexOf(":");
  const type = colonIdx === -1 ? spec : spec.slice(0, colonIdx);
  const params = colonIdx === -1 ? "" : spec.slice(colonIdx + 1);
  switch (type) {
    case "contains":
      if (!params) throw new Error("contains requires a value: contains:<value>");
      return { name: "contains", type: "contains", value: params };
    case "regex":
      if (!params) throw new Error("regex requires a pattern: regex:<pattern>");
      return { name: "regex", type: "regex", value: params };
    case "is-json":
      return { name: "is-json", type: "is-json" };
    case "equals":
      if (!params) throw new Error("equals requires a value: equals:<value>");
      return { name: "equals", type: "equals", value: params };
    case "latency": {
      const threshold = Number(params);
      if (!params || Number.isNaN(threshold))
        throw new Error("latency requires a threshold in ms: latency:<ms>");
      return { name: "latency", type: "latency", threshold };
    }
    case "cost": {
      const budget = Number(params);
      if (!params || Number.isNaN(budget))
        throw new Error("cost requires a budget in USD: cost:<usd>");
      return { name: "cost", type: "cost", budget };
    }
    case "token-usage": {
      const kv = parseKeyValues(params);
      const config = { name: "token-usage", type: "token-usage" };
      if (kv.max_total) config.max_total = Number(kv.max_total);
      if (kv.max_input) config.max_input = Number(kv.max_input);
      if (kv.max_output) config.max_output = Number(kv.max_output);
      return config;
    }
    case "execution-metrics": {
      const kv = parseKeyValues(params);
      const config = {
        name: "execution-metrics",
        type: "execution-metrics"
      };
      if (kv.max_tool_calls) config.max_tool_calls = Number(kv.max_tool_calls);
      if (kv.max_llm_calls) config.max_llm_calls = Number(kv.max_llm_calls);
      if (kv.max_tokens) config.max_tokens = Number(kv.max_tokens);
      if (kv.max_cost_usd) config.max_cost_usd = Number(kv.max_cost_usd);
      if (kv.max_duration_ms) config.max_duration_ms = Number(kv.max_duration_ms);
      return config;
    }
    default:
      throw new Error(
        `Unsupported grader type: "${type}". Supported: ${SUPPORTED_TYPES.join(", ")}`
      );
  }
}
function extractCandidate(raw) {
  if (raw.output !== void 0)
    return typeof raw.output === "string" ? raw.output : JSON.stringify(raw.output);
  return "";
}
function buildTestCase(raw) {
  return {
    id: raw.test_id ?? "unknown",
    question: "",
    input: [],
    expected_output: [],
    file_paths: [],
    criteria: ""
  };
}
var stubProvider = {
  id: "trace-score-stub",
  kind: "mock",
  targetName: "trace-score-stub",
  invoke(_request) {
    throw new Error("trace score does not support LLM-based evaluators");
  }
};
var stubLlmGrader = {
  kind: "llm-grader",
  evaluate() {
    throw new Error("trace score does not support LLM-based evaluators");
  }
};
async function runScore(results, evaluatorConfig, testIdFilter) {
  const registry = createBuiltinRegistry();
  const dispatchContext = {
    llmGrader: stubLlmGrader,
    registry
  };
  const evaluator = await registry.create(evaluatorConfig, dispatchContext);
  const scored = [];
  for (const raw of results) {
    if (testIdFilter && raw.test_id !== testIdFilter) continue;
    const candidate = extractCandidate(raw);
    const output = raw.trace?.messages ?? (Array.isArray(raw.output) ? raw.output : void 0);
    const outputMessages = Array.isArray(output) ? toCamelCaseDeep(output) : void 0;
    const trace = raw.trace && Array.isArray(raw.trace.messages) && Array.isArray(raw.trace.events) ? toCamelCaseDeep(raw.trace) : buildTraceFromMessages({
      output: outputMessages,
      finalOutput: candidate,
      summary: toTraceSummary(raw),
      target: raw.target,
      testId: raw.test_id
    });
    const evalContext = {
      evalCase: buildTestCase(raw),
      candidate,
      target: { kind: "custom", name: raw.target ?? "unknown", config: {} },
      provider: stubProvider,
      attempt: 1,
      promptInputs: { question: "" },
      now: /* @__PURE__ */ new Date(),
      output: outputMessages,
      trace,
      tokenUsage: raw.token_usage ? toCamelCaseDeep(raw.token_usage) : void 0,
      costUsd: raw.cost_usd,
      durationMs: raw.duration_ms,
      startTime: raw.start_time,
      endTime: raw.end_time
    };
    const score = await evaluator.evaluate(evalContext);
    scored.push({
      testId: raw.test_id ?? "unknown",
      candidate: candidate.slice(0, 80),
      originalScore: raw.score,
      newScore: score.score,
      verdict: score.verdict,
      assertions: score.assertions
    });
  }
  return scored;
}
function renderTable(scored, assertSpec) {
  const lines = [];
  const cols = [
    { header: "Test ID", width: 24 },
    { header: "Orig", width: 6 },
    { header: "New", width: 6 },
    { header: "Verdict", width: 8 },
    { header: "Detail", width: 50 }
  ];
  const headerLine = cols.map((col) => padRight(`${c.bold}${col.header}${c.reset}`, col.width)).join("  ");
  lines.push(headerLine);
  lines.push(cols.map((col) => "\u2500".repeat(col.width)).join("\u2500\u2500"));
  for (const r of scored) {
    const verdictColor = r.verdict === "pass" ? c.green : c.red;
    const failed = r.assertions.filter((a) => !a.passed);
    const passed = r.assertions.filter((a) => a.passed);
    const detail = failed.length > 0 ? failed[0].text.slice(0, 48) : passed.length > 0 ? passed[0].text.slice(0, 48) : "";
    const row = [
      padRight(r.testId.slice(0, 24), cols[0].width),
      padLeft(formatScore(r.originalScore), cols[1].width),
      padLeft(`${verdictColor}${formatScore(r.newScore)}${c.reset}`, cols[2].width),
      padRight(`${verdictColor}${r.verdict.toUpperCase()}${c.reset}`, cols[3].width),
      detail.slice(0, cols[4].width)
    ].join("  ");
    lines.push(row);
  }
  const passCount = scored.filter((r) => r.verdict === "pass").length;
  const total = scored.length;
  const meanScore = total > 0 ? scored.reduce((sum, r) => sum + r.newScore, 0) / total : 0;
  lines.push("");
  lines.push(
    `${c.bold}Assert:${c.reset} ${assertSpec}  ${c.bold}Results:${c.reset} ${passCount}/${total} passed (${formatScore(passCount / (total || 1))})  ${c.bold}Mean:${c.reset} ${formatScore(meanScore)}`
  );
  return lines.join("\n");
}
var traceScoreCommand = command({
  name: "score",
  description: "Run evaluators against existing trace sources post-hoc",
  args: {
    file: positional({
      type: string,
      displayName: "trace-source",
      description: "Path to a run workspace, result manifest, simple trace JSONL, or OTLP JSON file"
    }),
    assert: option({
      type: string,
      long: "assert",
      short: "a",
      description: "Grader spec: contains:<val>, regex:<pat>, is-json, equals:<val>, latency:<ms>, cost:<usd>, token-usage:<params>, execution-metrics:<params>"
    }),
    testId: option({
      type: optional(string),
      long: "test-id",
      description: "Filter to a specific test ID"
    }),
    format: option({
      type: optional(oneOf(["json", "table"])),
      long: "format",
      short: "f",
      description: "Output format (default: table)"
    })
  },
  handler: async ({ file, assert: assertSpec, testId, format }) => {
    let evaluatorConfig;
    try {
      evaluatorConfig = parseAssertSpec(assertSpec);
    } catch (err2) {
      const msg = err2 instanceof Error ? err2.message : String(err2);
      console.error(`${c.red}Error:${c.reset} ${msg}`);
      process.exit(1);
    }
    let results;
    try {
      results = loadResultFile(file);
    } catch (err2) {
      const msg = err2 instanceof Error ? err2.message : String(err2);
      console.error(`${c.red}Error:${c.reset} Could not load result file: ${msg}`);
      process.exit(1);
    }
    if (results.length === 0) {
      console.error(`${c.yellow}Warning:${c.reset} No results found in ${file}`);
      process.exit(0);
    }
    const traceRequired = ["latency", "cost", "token-usage", "execution-metrics"].includes(
      evaluatorConfig.type
    );
    if (traceRequired) {
      const hasTrace = results.some(
        (r) => toTraceSummary(r) || r.cost_usd !== void 0 || r.duration_ms !== void 0 || r.token_usage !== void 0
      );
      if (!hasTrace) {
        console.error(
          `${c.red}Error:${c.reset} Source lacks trace metrics. Use a run manifest with summary metrics in ${c.bold}index.jsonl${c.reset} or import an external OTLP trace that already contains metrics.`
        );
        process.exit(1);
      }
    }
    let scored;
    try {
      scored = await runScore(results, evaluatorConfig, testId);
    } catch (err2) {
      const msg = err2 instanceof Error ? err2.message : String(err2);
      console.error(`${c.red}Error:${c.reset} Scoring failed: ${msg}`);
      process.exit(1);
    }
    if (scored.length === 0) {
      console.error(
        `${c.yellow}Warning:${c.reset} No results matched${testId ? ` test ID "${testId}"` : ""}`
      );
      process.exit(0);
    }
    if (format === "json") {
      console.log(JSON.stringify(scored, null, 2));
    } else {
      console.log(renderTable(scored, assertSpec));
    }
    const hasFailures = scored.some((r) => r.verdict !== "pass");
    if (hasFailures) {
      process.exit(1);
    }
  }
});

// src/commands/inspect/search.ts
import { existsSync as existsSync5, readFileSync as readFileSync6, readdirSync as readdirSync3, statSync as statSync3 } from "node:fs";
import path16 from "node:path";
function collectJsonlFiles(dir) {
  const files = [];
  try {
    const entries2 = readdirSync3(dir, { withFileTypes: true });
    for (const entry of entries2) {
      const fullPath = path16.join(dir, entry.name);
      if (entry.isDirectory()) {
        files.push(...collectJsonlFiles(fullPath));
      } else if (entry.name.endsWith(".jsonl")) {
        files.push(fullPath);
      }
    }
  } catch {
  }
  return files;
}
function collectCurrentResultJsonlFiles(cwd) {
  const resultsDir = path16.join(cwd, ".agentv", "results");
  const files = [];
  try {
    const entries2 = readdirSync3(resultsDir, { withFileTypes: true });
    for (const entry of entries2) {
      if (isReservedResultsNamespace(entry.name)) continue;
      const fullPath = path16.join(resultsDir, entry.name);
      if (entry.isDirectory()) {
        files.push(...collectJsonlFiles(fullPath));
      } else if (entry.name.endsWith(".jsonl")) {
        files.push(fullPath);
      }
    }
  } catch {
  }
  return files;
}
function extractSnippet(text, matchIndex, matchLength, contextChars = 60) {
  const start = Math.max(0, matchIndex - contextChars);
  const end = Math.min(text.length, matchIndex + matchLength + contextChars);
  let snippet = text.slice(start, end);
  if (start > 0) snippet = `...${snippet}`;
  if (end < text.length) snippet = `${snippet}...`;
  return snippet.replace(/\n/g, "\\n").replace(/\r/g, "");
}
function searchJsonlFile(filePath, regex2, targetFilter, experimentFilter) {
  const matches = [];
  let content;
  try {
    content = readFileSync6(filePath, "utf8");
  } catch {
    return matches;
  }
  const lines = content.split("\n").filter((line) => line.trim());
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let record;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    const target = typeof record.target === "string" ? record.target : void 0;
    const experiment = typeof record.experiment === "string" ? record.experiment : void 0;
    const score = typeof record.score === "number" ? record.score : void 0;
    const testId = typeof record.test_id === "string" ? record.test_id : typeof record.testId === "string" ? record.testId : typeof record.source === "object" && record.source !== null ? record.source.session_id : void 0;
    if (targetFilter && target !== targetFilter) continue;
    if (experimentFilter && experiment !== experimentFilter) continue;
    const match = regex2.exec(line);
    if (match) {
      matches.push({
        file: filePath,
        id: testId ?? `line-${i + 1}`,
        lineNumber: i + 1,
        snippet: extractSnippet(line, match.index, match[0].length),
        target,
        experiment,
        score
      });
    }
  }
  return matches;
}
function discoverSources(basePath, cwd) {
  if (basePath) {
    const resolved = path16.isAbsolute(basePath) ? basePath : path16.resolve(cwd, basePath);
    if (!existsSync5(resolved)) {
      console.error(`${c.red}Error:${c.reset} Path does not exist: ${resolved}`);
      process.exit(1);
    }
    try {
      if (statSync3(resolved).isDirectory()) {
        return collectJsonlFiles(resolved);
      }
    } catch {
    }
    return [resolved];
  }
  const sources = [];
  sources.push(...collectCurrentResultJsonlFiles(cwd));
  sources.push(...collectJsonlFiles(path16.join(cwd, ".agentv", "transcripts")));
  return sources;
}
function formatSearchResults(matches, pattern) {
  const lines = [];
  if (matches.length === 0) {
    lines.push(`${c.yellow}No matches found for pattern: ${pattern}${c.reset}`);
    return lines.join("\n");
  }
  lines.push("");
  lines.push(`${c.bold}Search Results${c.reset} ${c.dim}pattern: /${pattern}/${c.reset}`);
  lines.push(
    `${c.dim}${matches.length} record${matches.length !== 1 ? "s" : ""} matched${c.reset}`
  );
  lines.push("");
  const byFile = /* @__PURE__ */ new Map();
  for (const match of matches) {
    const existing = byFile.get(match.file) ?? [];
    existing.push(match);
    byFile.set(match.file, existing);
  }
  for (const [file, fileMatches] of byFile) {
    lines.push(`${c.cyan}${file}${c.reset}`);
    for (const match of fileMatches) {
      const meta = [];
      if (match.target) meta.push(`target:${match.target}`);
      if (match.experiment) meta.push(`exp:${match.experiment}`);
      if (match.score !== void 0) meta.push(`score:${match.score}`);
      const metaStr = meta.length > 0 ? ` ${c.dim}[${meta.join(", ")}]${c.reset}` : "";
      lines.push(
        `  ${c.bold}${match.id}${c.reset} ${c.dim}(line ${match.lineNumber})${c.reset}${metaStr}`
      );
      lines.push(`    ${match.snippet}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
var inspectSearchCommand = command({
  name: "search",
  description: "Search across evaluation results and transcripts for a regex pattern",
  args: {
    pattern: option({
      type: string,
      long: "pattern",
      short: "p",
      description: "Regex pattern to search for in result/transcript content"
    }),
    path: positional({
      type: optional(string),
      displayName: "path",
      description: "Directory or file to search (default: .agentv/results/ and .agentv/transcripts/)"
    }),
    target: option({
      type: optional(string),
      long: "target",
      description: "Filter results to a specific target name"
    }),
    experiment: option({
      type: optional(string),
      long: "experiment",
      description: "Filter results to a specific experiment name"
    }),
    dir: option({
      type: optional(string),
      long: "dir",
      short: "d",
      description: "Working directory (default: current directory)"
    }),
    format: option({
      type: optional(oneOf(["table", "json"])),
      long: "format",
      short: "f",
      description: "Output format: table (default) or json"
    })
  },
  handler: async ({ pattern, path: searchPath, target, experiment, dir, format }) => {
    const cwd = dir ?? process.cwd();
    let regex2;
    try {
      regex2 = new RegExp(pattern, "i");
    } catch (err2) {
      console.error(`${c.red}Error:${c.reset} Invalid regex pattern: ${err2.message}`);
      process.exit(1);
    }
    const sources = discoverSources(searchPath, cwd);
    if (sources.length === 0) {
      console.error(`${c.yellow}No JSONL files found to search.${c.reset}`);
      console.error(`${c.dim}Run an evaluation first, or specify a path to search.${c.reset}`);
      process.exit(0);
    }
    const allMatches = [];
    for (const source of sources) {
      const fileMatches = searchJsonlFile(source, regex2, target, experiment);
      allMatches.push(...fileMatches);
    }
    if (format === "json") {
      console.log(JSON.stringify(toSnakeCaseDeep(allMatches), null, 2));
    } else {
      console.log(formatSearchResults(allMatches, pattern));
    }
  }
});

// src/commands/inspect/show.ts
function renderFlatTrace(result) {
  const trace = getTraceSummary(result);
  const parts = [];
  if (trace?.tool_calls && Object.keys(trace.tool_calls).length > 0) {
    const toolParts = Object.entries(trace.tool_calls).map(([name, count]) => {
      return count > 1 ? `${name} \xD7${count}` : name;
    });
    parts.push(`Tools: ${toolParts.join(", ")}`);
  }
  if (result.duration_ms !== void 0) {
    parts.push(`Duration: ${formatDuration(result.duration_ms)}`);
  }
  if (result.token_usage) {
    const total = result.token_usage.input + result.token_usage.output;
    parts.push(`Tokens: ${formatNumber(total)}`);
  }
  if (result.cost_usd !== void 0) {
    parts.push(`Cost: ${formatCost(result.cost_usd)}`);
  }
  if (trace?.llm_call_count !== void 0) {
    parts.push(`LLM calls: ${trace.llm_call_count}`);
  }
  return parts.join(" | ");
}
function renderScores(scores) {
  return scores.map((s) => {
    const scoreColor = s.score >= 0.9 ? c.green : s.score >= 0.5 ? c.yellow : c.red;
    return `${s.name} ${scoreColor}${formatScore(s.score)}${c.reset}`;
  }).join(" | ");
}
function renderTree(result) {
  const messages = result.trace?.messages ?? (Array.isArray(result.output) ? result.output : void 0);
  const spans = getTraceSpans(result);
  if (!messages || messages.length === 0) {
    if (spans.length > 0) {
      return renderSpanTree(result, spans);
    }
    if (getTraceSummary(result) || result.duration_ms !== void 0 || result.cost_usd !== void 0) {
      return renderFlatTrace(result);
    }
    return `${c.dim}No trace data available${c.reset}`;
  }
  const lines = [];
  const testId = result.test_id ?? result.eval_id ?? "unknown";
  const totalDuration = result.duration_ms;
  const totalTokens = result.token_usage ? result.token_usage.input + result.token_usage.output : void 0;
  const rootParts = [testId];
  if (totalDuration !== void 0) rootParts.push(formatDuration(totalDuration));
  if (totalTokens !== void 0) rootParts.push(`${formatNumber(totalTokens)} tok`);
  if (result.cost_usd !== void 0) rootParts.push(formatCost(result.cost_usd));
  lines.push(`${c.bold}${rootParts.join(", ")}${c.reset}`);
  const steps = [];
  for (let i = 0; i < messages.length; i++) {
    const msg = messages[i];
    if (msg.role === "assistant") {
      if (msg.tool_calls && msg.tool_calls.length > 0) {
        steps.push({ type: "tools", msg, index: i });
      } else {
        steps.push({ type: "llm", msg, index: i });
      }
    }
  }
  for (let si = 0; si < steps.length; si++) {
    const step = steps[si];
    const isLast = si === steps.length - 1;
    const connector = isLast ? "\u2514\u2500" : "\u251C\u2500";
    const childPrefix = isLast ? "   " : "\u2502  ";
    if (step.type === "llm") {
      const parts = [`${c.cyan}model${c.reset}`];
      if (step.msg.duration_ms !== void 0) parts.push(formatDuration(step.msg.duration_ms));
      if (step.msg.token_usage) {
        const tok = step.msg.token_usage.input + step.msg.token_usage.output;
        parts.push(`${formatNumber(tok)} tok`);
      }
      lines.push(`${connector} ${parts.join(", ")}`);
    } else {
      const toolCalls = step.msg.tool_calls ?? [];
      if (toolCalls.length === 1) {
        const tc = toolCalls[0];
        const parts = [`${c.yellow}${tc.tool}${c.reset}`];
        if (tc.duration_ms !== void 0) parts.push(formatDuration(tc.duration_ms));
        lines.push(`${connector} ${parts.join(", ")}`);
      } else {
        const parts = [`${c.dim}tools${c.reset}`];
        if (step.msg.duration_ms !== void 0) parts.push(formatDuration(step.msg.duration_ms));
        lines.push(`${connector} ${parts.join(", ")}`);
        for (let ti = 0; ti < toolCalls.length; ti++) {
          const tc = toolCalls[ti];
          const isLastTool = ti === toolCalls.length - 1;
          const toolConnector = isLastTool ? "\u2514\u2500" : "\u251C\u2500";
          const tcParts = [`${c.yellow}${tc.tool}${c.reset}`];
          if (tc.duration_ms !== void 0) tcParts.push(formatDuration(tc.duration_ms));
          lines.push(`${childPrefix}${toolConnector} ${tcParts.join(", ")}`);
        }
      }
    }
  }
  if (result.scores && result.scores.length > 0) {
    lines.push("");
    lines.push(`${c.dim}Scores:${c.reset} ${renderScores(result.scores)}`);
  }
  return lines.join("\n");
}
function renderSpanTree(result, spans) {
  const lines = [];
  const testId = result.test_id ?? result.eval_id ?? "unknown";
  const totalTokens = result.token_usage ? result.token_usage.input + result.token_usage.output : void 0;
  const rootParts = [testId];
  if (result.duration_ms !== void 0) rootParts.push(formatDuration(result.duration_ms));
  if (totalTokens !== void 0) rootParts.push(`${formatNumber(totalTokens)} tok`);
  if (result.cost_usd !== void 0) rootParts.push(formatCost(result.cost_usd));
  lines.push(`${c.bold}${rootParts.join(", ")}${c.reset}`);
  spans.forEach((span, index) => {
    const connector = index === spans.length - 1 ? "\u2514\u2500" : "\u251C\u2500";
    const color = span.type === "llm" ? c.cyan : c.yellow;
    const parts = [`${color}${span.name}${c.reset}`];
    if (span.duration_ms !== void 0) {
      parts.push(formatDuration(span.duration_ms));
    }
    lines.push(`${connector} ${parts.join(", ")}`);
  });
  if (result.scores && result.scores.length > 0) {
    lines.push("");
    lines.push(`${c.dim}Scores:${c.reset} ${renderScores(result.scores)}`);
  }
  return lines.join("\n");
}
function formatResultDetail(result, index, tree) {
  const lines = [];
  const testId = result.test_id ?? result.eval_id ?? `result-${index}`;
  if (tree) {
    lines.push(renderTree(result));
    return lines.join("\n");
  }
  const scoreColor = result.score >= 0.9 ? c.green : result.score >= 0.5 ? c.yellow : c.red;
  lines.push(
    `${c.bold}${testId}${c.reset}  ${scoreColor}${formatScore(result.score)}${c.reset}${result.target ? `  ${c.dim}target: ${result.target}${c.reset}` : ""}${result.suite ? `  ${c.dim}suite: ${result.suite}${c.reset}` : ""}`
  );
  if (result.error) {
    lines.push(`  ${c.red}Error: ${result.error}${c.reset}`);
  }
  if (result.assertions && result.assertions.length > 0) {
    const passed = result.assertions.filter((a) => a.passed);
    const failed = result.assertions.filter((a) => !a.passed);
    if (passed.length > 0)
      lines.push(
        `  ${c.green}\u2713 Passed:${c.reset} ${passed.map((a) => a.text).join(", ")}`
      );
    if (failed.length > 0)
      lines.push(
        `  ${c.red}\u2717 Failed:${c.reset} ${failed.map((a) => a.text).join(", ")}`
      );
  }
  if (result.scores && result.scores.length > 0) {
    lines.push(`  ${c.dim}Scores:${c.reset} ${renderScores(result.scores)}`);
  }
  if (result.trace || result.duration_ms !== void 0 || result.cost_usd !== void 0) {
    lines.push(`  ${c.dim}Trace:${c.reset} ${renderFlatTrace(result)}`);
  }
  if (result.assertions && result.assertions.length > 0) {
    const withEvidence = result.assertions.filter((a) => a.evidence);
    if (withEvidence.length > 0) {
      const maxLen = 200;
      const evidence = withEvidence[0].evidence;
      const truncated = evidence.length > maxLen ? `${evidence.slice(0, maxLen)}...` : evidence;
      lines.push(`  ${c.dim}Evidence: ${truncated}${c.reset}`);
    }
  }
  return lines.join("\n");
}
function formatShowTable(results, filePath, testIdFilter, tree) {
  const lines = [];
  let filtered = results;
  if (testIdFilter) {
    filtered = results.filter((r) => (r.test_id ?? r.eval_id) === testIdFilter);
    if (filtered.length === 0) {
      lines.push(`${c.yellow}No results found with test ID "${testIdFilter}"${c.reset}`);
      lines.push("");
      lines.push(`${c.dim}Available test IDs:${c.reset}`);
      for (const r of results) {
        lines.push(`  ${r.test_id ?? r.eval_id ?? "(unnamed)"}`);
      }
      return lines.join("\n");
    }
  }
  lines.push("");
  lines.push(`${c.bold}Results:${c.reset} ${c.cyan}${filePath}${c.reset}`);
  const totalTests = filtered.length;
  const passCount = filtered.filter((r) => r.score >= 1).length;
  const failCount = totalTests - passCount;
  const avgScore = totalTests > 0 ? filtered.reduce((sum, r) => sum + r.score, 0) / totalTests : 0;
  lines.push(
    `${c.dim}${totalTests} test${totalTests !== 1 ? "s" : ""} | ${c.green}${passCount} passed${c.reset}${c.dim}${failCount > 0 ? ` | ${c.red}${failCount} failed${c.reset}${c.dim}` : ""} | avg score: ${formatScore(avgScore)}${c.reset}`
  );
  lines.push("");
  for (let i = 0; i < filtered.length; i++) {
    lines.push(formatResultDetail(filtered[i], i, tree ?? false));
    if (i < filtered.length - 1) {
      lines.push(`${c.dim}${"\u2500".repeat(60)}${c.reset}`);
    }
  }
  lines.push("");
  return lines.join("\n");
}
var traceShowCommand = command({
  name: "show",
  description: "Show evaluation results with trace details from a result file",
  args: {
    file: positional({
      type: string,
      displayName: "trace-source",
      description: "Path to a run workspace, result manifest, simple trace JSONL, or OTLP JSON file"
    }),
    testId: option({
      type: optional(string),
      long: "test-id",
      description: "Filter to a specific test ID"
    }),
    tree: flag({
      long: "tree",
      description: "Show hierarchical trace tree from output messages or exported trace spans"
    }),
    format: option({
      type: optional(oneOf(["table", "json"])),
      long: "format",
      short: "f",
      description: "Output format: table (default) or json"
    })
  },
  handler: async ({ file, testId, tree, format }) => {
    const outputFormat = format ?? "table";
    try {
      const results = loadResultFile(file);
      let filtered = results;
      if (testId) {
        filtered = results.filter((r) => (r.test_id ?? r.eval_id) === testId);
      }
      if (outputFormat === "json") {
        console.log(JSON.stringify(filtered, null, 2));
      } else {
        console.log(formatShowTable(results, file, testId, tree));
      }
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
  }
});

// src/commands/inspect/stats.ts
function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  const index = p / 100 * (sorted.length - 1);
  const lower = Math.floor(index);
  const upper = Math.ceil(index);
  if (lower === upper) return sorted[lower];
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (index - lower);
}
function mean(values) {
  if (values.length === 0) return 0;
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}
function collectMetrics(results) {
  const rows = [];
  const scores = results.map((r) => r.score);
  if (scores.length > 0) {
    rows.push({ name: "score", values: scores, formatter: (n) => n.toFixed(2) });
  }
  const latencies = results.map((r) => r.duration_ms).filter((v) => v !== void 0);
  if (latencies.length > 0) {
    rows.push({
      name: "latency_s",
      values: latencies.map((ms) => ms / 1e3),
      formatter: (n) => n.toFixed(1)
    });
  }
  const costs = results.map((r) => r.cost_usd).filter((v) => v !== void 0);
  if (costs.length > 0) {
    rows.push({ name: "cost_usd", values: costs, formatter: (n) => formatCost(n) });
  }
  const tokens = results.map((r) => {
    if (!r.token_usage) return void 0;
    return r.token_usage.input + r.token_usage.output;
  }).filter((v) => v !== void 0);
  if (tokens.length > 0) {
    rows.push({
      name: "tokens_total",
      values: tokens,
      formatter: (n) => formatNumber(Math.round(n))
    });
  }
  const toolCalls = results.map((r) => getTraceSummary(r)?.event_count).filter((v) => v !== void 0);
  if (toolCalls.length > 0) {
    rows.push({ name: "tool_calls", values: toolCalls, formatter: (n) => String(Math.round(n)) });
  }
  const llmCalls = results.map((r) => getTraceSummary(r)?.llm_call_count).filter((v) => v !== void 0);
  if (llmCalls.length > 0) {
    rows.push({ name: "llm_calls", values: llmCalls, formatter: (n) => String(Math.round(n)) });
  }
  return rows;
}
function groupResults(results, groupBy2) {
  if (!groupBy2) return [{ label: "all", results }];
  const groups = /* @__PURE__ */ new Map();
  for (const result of results) {
    let key;
    switch (groupBy2) {
      case "target":
        key = result.target ?? "unknown";
        break;
      case "suite":
        key = result.suite ?? "unknown";
        break;
      case "test-id":
        key = result.test_id ?? result.eval_id ?? "unknown";
        break;
      default:
        key = "all";
    }
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)?.push(result);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([label, results2]) => ({ label, results: results2 }));
}
function formatStatsTable(groups, filePath) {
  const lines = [];
  lines.push("");
  lines.push(`${c.bold}Statistics:${c.reset} ${c.cyan}${filePath}${c.reset}`);
  for (const group of groups) {
    if (groups.length > 1 || group.label !== "all") {
      lines.push("");
      lines.push(
        `${c.bold}Group: ${group.label}${c.reset} ${c.dim}(${group.results.length} tests)${c.reset}`
      );
    } else {
      lines.push(`${c.dim}${group.results.length} tests${c.reset}`);
    }
    lines.push("");
    const metrics = collectMetrics(group.results);
    if (metrics.length === 0) {
      lines.push(`${c.yellow}No trace metrics available${c.reset}`);
      continue;
    }
    const nameWidth = Math.max(12, ...metrics.map((m) => m.name.length));
    const colWidth = 10;
    const header = `  ${padRight("Metric", nameWidth)}  ${padLeft("Mean", colWidth)}  ${padLeft("P50", colWidth)}  ${padLeft("P90", colWidth)}  ${padLeft("P95", colWidth)}  ${padLeft("P99", colWidth)}`;
    lines.push(`${c.dim}${header}${c.reset}`);
    lines.push(
      `${c.dim}  ${"\u2500".repeat(nameWidth)}  ${"\u2500".repeat(colWidth)}  ${"\u2500".repeat(colWidth)}  ${"\u2500".repeat(colWidth)}  ${"\u2500".repeat(colWidth)}  ${"\u2500".repeat(colWidth)}${c.reset}`
    );
    for (const metric of metrics) {
      const sorted = [...metric.values].sort((a, b) => a - b);
      const row = `  ${padRight(metric.name, nameWidth)}  ${padLeft(metric.formatter(mean(sorted)), colWidth)}  ${padLeft(metric.formatter(percentile(sorted, 50)), colWidth)}  ${padLeft(metric.formatter(percentile(sorted, 90)), colWidth)}  ${padLeft(metric.formatter(percentile(sorted, 95)), colWidth)}  ${padLeft(metric.formatter(percentile(sorted, 99)), colWidth)}`;
      lines.push(row);
    }
  }
  lines.push("");
  return lines.join("\n");
}
function computeStatsJson(groups, filePath) {
  return {
    file: filePath,
    groups: groups.map((group) => {
      const metrics = collectMetrics(group.results);
      const metricsObj = {};
      for (const metric of metrics) {
        const sorted = [...metric.values].sort((a, b) => a - b);
        metricsObj[metric.name] = {
          mean: Number(mean(sorted).toFixed(4)),
          p50: Number(percentile(sorted, 50).toFixed(4)),
          p90: Number(percentile(sorted, 90).toFixed(4)),
          p95: Number(percentile(sorted, 95).toFixed(4)),
          p99: Number(percentile(sorted, 99).toFixed(4))
        };
      }
      return {
        label: group.label,
        count: group.results.length,
        metrics: metricsObj
      };
    })
  };
}
var traceStatsCommand = command({
  name: "stats",
  description: "Compute summary statistics (percentiles) across evaluation results",
  args: {
    file: positional({
      type: string,
      displayName: "trace-source",
      description: "Path to a run workspace, result manifest, simple trace JSONL, or OTLP JSON file"
    }),
    groupBy: option({
      type: optional(oneOf(["target", "eval-set", "test-id"])),
      long: "group-by",
      short: "g",
      description: "Group statistics by: target, eval-set, or test-id"
    }),
    format: option({
      type: optional(oneOf(["table", "json"])),
      long: "format",
      short: "f",
      description: "Output format: table (default) or json"
    })
  },
  handler: async ({ file, groupBy: groupBy2, format }) => {
    const outputFormat = format ?? "table";
    try {
      const results = loadResultFile(file);
      if (results.length === 0) {
        console.error("Error: Result file is empty");
        process.exit(1);
      }
      const groups = groupResults(results, groupBy2);
      if (outputFormat === "json") {
        const statsJson = computeStatsJson(groups, file);
        console.log(JSON.stringify(toSnakeCaseDeep(statsJson), null, 2));
      } else {
        console.log(formatStatsTable(groups, file));
      }
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
  }
});

// src/commands/inspect/index.ts
var inspectCommand = subcommands({
  name: "inspect",
  description: "Inspect and analyze evaluation results",
  cmds: {
    filter: inspectFilterCommand,
    list: traceListCommand,
    score: traceScoreCommand,
    search: inspectSearchCommand,
    show: traceShowCommand,
    stats: traceStatsCommand
  }
});

// src/commands/pipeline/bench.ts
import { existsSync as existsSync6 } from "node:fs";
import { mkdir as mkdir6, readFile as readFile4, readdir, writeFile as writeFile6 } from "node:fs/promises";
import { join } from "node:path";
function toComponentResult(assertion, evaluator) {
  return {
    pass: assertion.passed,
    score: assertion.passed ? 1 : 0,
    reason: assertion.evidence ?? assertion.text,
    assertion: {
      ...evaluator ? { name: evaluator.name, type: evaluator.type } : {},
      value: assertion.text
    }
  };
}
function evaluatorComponent(evaluator) {
  const pass = evaluator.score >= DEFAULT_THRESHOLD;
  return {
    pass,
    score: evaluator.score,
    reason: pass ? "Grader passed." : "Grader failed.",
    assertion: {
      name: evaluator.name,
      type: evaluator.type,
      weight: evaluator.weight
    },
    component_results: evaluator.assertions.map(
      (assertion) => toComponentResult(assertion, evaluator)
    )
  };
}
var evalBenchCommand = command({
  name: "bench",
  description: "Merge grader scores and produce benchmark artifacts",
  args: {
    exportDir: positional({
      type: string,
      displayName: "export-dir",
      description: "Export directory from pipeline input/grade"
    })
  },
  handler: async ({ exportDir }) => {
    const manifest = JSON.parse(await readFile4(join(exportDir, "manifest.json"), "utf8"));
    const testIds = manifest.test_ids;
    const targetName2 = manifest.target?.name ?? "unknown";
    const suiteName = manifest.suite ?? "";
    const experiment = manifest.experiment;
    const safeSuiteName = suiteName ? suiteName.replace(/[\/\\:*?"<>|]/g, "_") : "";
    const indexLines = [];
    const allPassRates = [];
    for (const testId of testIds) {
      const subpath = safeSuiteName ? [safeSuiteName, testId] : [testId];
      const testDir = join(exportDir, ...subpath);
      const artifactSubdir = subpath.join("/");
      const evaluators = [];
      const allAssertions = [];
      const codeResultsDir = join(testDir, "script_grader_results");
      try {
        const resultFiles = (await readdir(codeResultsDir)).filter((f) => f.endsWith(".json"));
        for (const file of resultFiles) {
          const result = JSON.parse(await readFile4(join(codeResultsDir, file), "utf8"));
          evaluators.push({
            name: result.name,
            type: result.type ?? "script",
            score: result.score,
            weight: result.weight ?? 1,
            assertions: result.assertions ?? []
          });
          for (const a of result.assertions ?? []) {
            allAssertions.push({ text: a.text, passed: a.passed, evidence: a.evidence ?? "" });
          }
        }
      } catch {
      }
      const llmGradersDir = join(testDir, "llm_graders");
      try {
        const graderFiles = (await readdir(llmGradersDir)).filter((f) => f.endsWith(".json"));
        for (const file of graderFiles) {
          const graderMeta = JSON.parse(await readFile4(join(llmGradersDir, file), "utf8"));
          const graderName = graderMeta.name;
          const diskResultPath = join(testDir, "llm_grader_results", `${graderName}.json`);
          let llmResult;
          try {
            llmResult = JSON.parse(await readFile4(diskResultPath, "utf8"));
          } catch {
          }
          if (llmResult) {
            evaluators.push({
              name: graderName,
              type: "llm-grader",
              score: llmResult.score,
              weight: graderMeta.weight ?? 1,
              assertions: llmResult.assertions ?? []
            });
            for (const a of llmResult.assertions ?? []) {
              allAssertions.push({ text: a.text, passed: a.passed, evidence: a.evidence ?? "" });
            }
          }
        }
      } catch {
      }
      const totalWeight = evaluators.reduce((sum, e) => sum + e.weight, 0);
      const weightedScore = totalWeight > 0 ? evaluators.reduce((sum, e) => sum + e.score * e.weight, 0) / totalWeight : 0;
      const passed = allAssertions.filter((a) => a.passed).length;
      const failed = allAssertions.filter((a) => !a.passed).length;
      const passRate = allAssertions.length > 0 ? Math.round(passed / allAssertions.length * 1e3) / 1e3 : weightedScore >= 0.5 ? 1 : 0;
      allPassRates.push(passRate);
      const pass = weightedScore >= DEFAULT_THRESHOLD;
      const grading = {
        pass,
        score: Math.round(weightedScore * 1e3) / 1e3,
        reason: pass ? "All grading components passed." : "One or more grading components failed.",
        component_results: evaluators.length > 0 ? evaluators.map(evaluatorComponent) : allAssertions.map((assertion) => toComponentResult(assertion)),
        metadata: {
          pass_count: passed,
          fail_count: failed,
          sample_count: allAssertions.length,
          pass_rate: passRate
        }
      };
      await writeFile6(
        join(testDir, "grading.json"),
        `${JSON.stringify(grading, null, 2)}
`,
        "utf8"
      );
      const scores = evaluators.map((e) => ({
        name: e.name,
        type: e.type,
        pass: e.score >= DEFAULT_THRESHOLD,
        score: e.score,
        weight: e.weight,
        reason: e.score >= DEFAULT_THRESHOLD ? "Grader passed." : "Grader failed."
      }));
      let executionStatus = "ok";
      const metricsPath = join(testDir, "metrics.json");
      if (existsSync6(metricsPath)) {
        try {
          const metrics = JSON.parse(await readFile4(metricsPath, "utf8"));
          if (typeof metrics.execution?.status === "string") {
            executionStatus = metrics.execution.status;
          }
        } catch {
        }
      }
      const hasResponse = existsSync6(join(testDir, "response.md"));
      indexLines.push(
        JSON.stringify({
          timestamp: manifest.timestamp,
          test_id: testId,
          suite: suiteName || void 0,
          experiment: experiment || void 0,
          score: Math.round(weightedScore * 1e3) / 1e3,
          target: targetName2,
          scores,
          execution_status: executionStatus,
          grading_path: `${artifactSubdir}/grading.json`,
          metrics_path: `${artifactSubdir}/metrics.json`,
          response_path: hasResponse ? `${artifactSubdir}/response.md` : void 0
        })
      );
    }
    const indexPath = join(exportDir, ".internal", RESULT_INDEX_FILENAME);
    await mkdir6(join(exportDir, ".internal"), { recursive: true });
    await writeFile6(indexPath, indexLines.length > 0 ? `${indexLines.join("\n")}
` : "", "utf8");
    const passRateStats = computeStats(allPassRates);
    const summary = {
      index_path: `.internal/${RESULT_INDEX_FILENAME}`,
      metadata: {
        eval_file: manifest.eval_file,
        timestamp: manifest.timestamp,
        experiment: experiment || void 0,
        targets: [targetName2],
        tests_run: testIds
      },
      run_summary: {
        [targetName2]: {
          pass_rate: passRateStats,
          time_seconds: { mean: 0, stddev: 0 },
          tokens: { mean: 0, stddev: 0 }
        }
      },
      timing: {
        total_tokens: 0,
        duration_ms: 0,
        total_duration_seconds: 0,
        cost_usd: null,
        token_usage: { input: 0, output: 0, reasoning: 0 },
        usage_sources: {
          token_usage: "unavailable",
          total_tokens: "unavailable",
          duration: "unavailable",
          cost: "unavailable"
        }
      },
      notes: []
    };
    await writeFile6(
      join(exportDir, "summary.json"),
      `${JSON.stringify(summary, null, 2)}
`,
      "utf8"
    );
    console.log(`Benchmark: ${testIds.length} test(s), pass_rate=${passRateStats.mean}`);
    const results = indexLines.map((line) => JSON.parse(line));
    await maybeAutoExportRunArtifacts({
      cwd: process.cwd(),
      run_dir: exportDir,
      experiment,
      test_files: manifest.eval_file ? [manifest.eval_file] : [],
      results: results.map((result) => ({
        testId: result.test_id,
        score: result.score,
        executionStatus: result.execution_status,
        target: result.target,
        timestamp: result.timestamp
      })),
      eval_summaries: [
        {
          eval_file: manifest.eval_file ?? "pipeline",
          total: results.length,
          passed: results.filter((result) => result.score >= DEFAULT_THRESHOLD).length,
          avg_score: results.length > 0 ? results.reduce((sum, result) => sum + result.score, 0) / results.length : 0,
          results: results.map((result) => ({
            test_id: result.test_id,
            score: result.score,
            status: result.execution_status === "execution_error" ? "ERROR" : result.score >= DEFAULT_THRESHOLD ? "PASS" : "FAIL"
          }))
        }
      ]
    });
  }
});
function computeStats(values) {
  if (values.length === 0) return { mean: 0, stddev: 0 };
  const mean3 = values.reduce((sum, v) => sum + v, 0) / values.length;
  const variance = values.reduce((sum, v) => sum + (v - mean3) ** 2, 0) / values.length;
  return {
    mean: Math.round(mean3 * 1e3) / 1e3,
    stddev: Math.round(Math.sqrt(variance) * 1e3) / 1e3
  };
}

// src/commands/pipeline/grade.ts
import { mkdir as mkdir7, readFile as readFile5, readdir as readdir2, writeFile as writeFile7 } from "node:fs/promises";
import { join as join2 } from "node:path";
var DEFAULT_CONCURRENCY = 10;
async function runScriptGraders(tasks, concurrency) {
  let totalGraders = 0;
  let totalPassed = 0;
  let completed = 0;
  const total = tasks.length;
  if (total === 0) return { totalGraders: 0, totalPassed: 0 };
  const writeProgress = () => {
    process.stderr.write(`\rGrading: ${completed}/${total} done`);
  };
  writeProgress();
  const executeGrader = async (task) => {
    const { testDir, resultsDir, graderFile, responseText } = task;
    const graderConfig = JSON.parse(
      await readFile5(join2(testDir, "script_graders", graderFile), "utf8")
    );
    if (graderConfig.command) {
      await executeScriptGrader(graderConfig, task);
    } else {
      await executeBuiltinGrader(graderConfig, responseText, resultsDir);
    }
    totalGraders++;
    if (graderConfig._lastScore >= 0.5) totalPassed++;
    completed++;
    writeProgress();
  };
  const executeScriptGrader = async (graderConfig, task) => {
    const { testId, resultsDir, responseText, inputData } = task;
    const graderName = graderConfig.name;
    const graderType = typeof graderConfig.type === "string" ? graderConfig.type : "script";
    const messages = [{ role: "assistant", content: responseText }];
    const trace = buildTraceFromMessages({
      input: inputData.input,
      output: messages,
      finalOutput: responseText,
      testId
    });
    const payload = JSON.stringify({
      output: responseText,
      answer: responseText,
      messages,
      input: inputData.input,
      criteria: "",
      expected_output: [],
      input_files: inputData.input_files ?? [],
      trace,
      token_usage: null,
      cost_usd: null,
      duration_ms: null,
      start_time: null,
      end_time: null,
      file_changes: null,
      workspace_path: null,
      config: graderConfig.config ?? null,
      metadata: inputData.metadata ?? {}
    });
    try {
      const stdout = await executeScript(
        graderConfig.command,
        payload,
        void 0,
        graderConfig.cwd
      );
      const parsed = JSON.parse(stdout);
      const score = typeof parsed.score === "number" ? parsed.score : 0;
      const assertions = Array.isArray(parsed.assertions) && parsed.assertions.length > 0 ? parsed.assertions : [
        ...(parsed.hits ?? []).map((h) => ({ text: h, passed: true })),
        ...(parsed.misses ?? []).map((m) => ({ text: m, passed: false }))
      ];
      graderConfig._lastScore = score;
      await writeFile7(
        join2(resultsDir, `${graderName}.json`),
        `${JSON.stringify({ name: graderName, type: graderType, score, weight: graderConfig.weight ?? 1, assertions, details: parsed.details ?? {} }, null, 2)}
`,
        "utf8"
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`
  ${testId}/${graderName}: ERROR \u2014 ${message}
`);
      graderConfig._lastScore = 0;
      await writeFile7(
        join2(resultsDir, `${graderName}.json`),
        `${JSON.stringify({ name: graderName, type: graderType, score: 0, weight: graderConfig.weight ?? 1, assertions: [{ text: `Error: ${message}`, passed: false }], details: { error: message } }, null, 2)}
`,
        "utf8"
      );
    }
  };
  const executeBuiltinGrader = async (graderConfig, responseText, resultsDir) => {
    const raw = evaluateBuiltinAssertion(
      graderConfig,
      responseText
    );
    const negate = graderConfig.negate === true;
    const score = negate ? 1 - raw.score : raw.score;
    const assertions = negate ? raw.assertions.map((a) => ({
      text: a.text,
      passed: !a.passed
    })) : raw.assertions;
    graderConfig._lastScore = score;
    await writeFile7(
      join2(resultsDir, `${graderConfig.name}.json`),
      `${JSON.stringify({ name: graderConfig.name, type: graderConfig.type, score, weight: graderConfig.weight ?? 1, assertions, details: {} }, null, 2)}
`,
      "utf8"
    );
  };
  const pending = /* @__PURE__ */ new Set();
  for (const task of tasks) {
    const p = executeGrader(task).then(() => {
      pending.delete(p);
    });
    pending.add(p);
    if (pending.size >= concurrency) {
      await Promise.race(pending);
    }
  }
  await Promise.all(pending);
  process.stderr.write("\n");
  return { totalGraders, totalPassed };
}
function evaluateBuiltinAssertion(config, responseText) {
  const value = config.value;
  switch (config.type) {
    case "contains":
      return runContainsAssertion(responseText, value);
    case "contains-any":
      return runContainsAnyAssertion(responseText, value);
    case "contains-all":
      return runContainsAllAssertion(responseText, value);
    case "icontains":
      return runIcontainsAssertion(responseText, value);
    case "icontains-any":
      return runIcontainsAnyAssertion(responseText, value);
    case "icontains-all":
      return runIcontainsAllAssertion(responseText, value);
    case "starts-with":
      return runStartsWithAssertion(responseText, value);
    case "ends-with":
      return runEndsWithAssertion(responseText, value);
    case "regex":
      return runRegexAssertion(responseText, value, config.flags);
    case "is-json":
      return runIsJsonAssertion(responseText);
    case "equals":
      return runEqualsAssertion(responseText, value);
    default:
      return {
        score: 0,
        assertions: [{ text: `Unknown assertion type: ${config.type}`, passed: false }]
      };
  }
}
var evalGradeCommand = command({
  name: "grade",
  description: "Run grader assertions on responses in an export directory",
  args: {
    exportDir: positional({
      type: string,
      displayName: "export-dir",
      description: "Export directory from pipeline input"
    }),
    concurrency: option({
      type: optional(number),
      long: "concurrency",
      short: "j",
      description: `Number of graders to run in parallel (default: ${DEFAULT_CONCURRENCY})`
    })
  },
  handler: async ({ exportDir, concurrency }) => {
    const maxWorkers = concurrency ?? DEFAULT_CONCURRENCY;
    const manifestPath = join2(exportDir, "manifest.json");
    const manifest = JSON.parse(await readFile5(manifestPath, "utf8"));
    const testIds = manifest.test_ids;
    const suiteName = manifest.suite ?? "";
    const safeSuiteName = suiteName ? suiteName.replace(/[\/\\:*?"<>|]/g, "_") : "";
    const tasks = [];
    for (const testId of testIds) {
      const subpath = safeSuiteName ? [safeSuiteName, testId] : [testId];
      const testDir = join2(exportDir, ...subpath);
      const scriptGradersDir = join2(testDir, "script_graders");
      const resultsDir = join2(testDir, "script_grader_results");
      let graderFiles;
      try {
        graderFiles = (await readdir2(scriptGradersDir)).filter((f) => f.endsWith(".json"));
      } catch {
        continue;
      }
      if (graderFiles.length === 0) continue;
      await mkdir7(resultsDir, { recursive: true });
      const responseText = await readFile5(join2(testDir, "response.md"), "utf8");
      const inputData = JSON.parse(await readFile5(join2(testDir, "input.json"), "utf8"));
      for (const graderFile of graderFiles) {
        tasks.push({ testId, testDir, resultsDir, graderFile, responseText, inputData });
      }
    }
    const { totalGraders, totalPassed } = await runScriptGraders(tasks, maxWorkers);
    console.log(`Graded ${totalGraders} grader(s): ${totalPassed} passed`);
  }
});

// src/commands/pipeline/input.ts
import { readFile as readFile6 } from "node:fs/promises";
import { mkdir as mkdir8, writeFile as writeFile8 } from "node:fs/promises";
import { dirname, join as join3, relative, resolve } from "node:path";
var BUILTIN_ASSERTION_TYPES = /* @__PURE__ */ new Set([
  "contains",
  "contains-any",
  "contains-all",
  "icontains",
  "icontains-any",
  "icontains-all",
  "starts-with",
  "ends-with",
  "regex",
  "is-json",
  "equals"
]);
var evalInputCommand = command({
  name: "input",
  description: "Extract eval inputs, target commands, and grader prompts for subagent-mode runs",
  args: {
    evalPath: positional({
      type: string,
      displayName: "eval-path",
      description: "Path to eval YAML file"
    }),
    out: option({
      type: optional(string),
      long: "out",
      description: "Output directory for extracted inputs (default: .agentv/results/<run_id>)"
    }),
    experiment: option({
      type: optional(string),
      long: "experiment",
      description: "Experiment label (e.g. with_skills, without_skills)"
    }),
    target: option({
      type: optional(string),
      long: "target",
      description: "Override target name from targets.yaml (mirrors eval run --target)"
    }),
    targets: option({
      type: optional(string),
      long: "targets",
      description: "Path to targets.yaml (overrides discovery)"
    })
  },
  handler: async ({ evalPath, out, experiment, target, targets }) => {
    const resolvedEvalPath = resolve(evalPath);
    const outDir = resolve(out ?? buildDefaultRunDir(process.cwd(), experiment));
    const repoRoot = await findRepoRoot(dirname(resolvedEvalPath));
    const evalDir = dirname(resolvedEvalPath);
    const category = deriveCategory(relative(process.cwd(), resolvedEvalPath));
    const suite = await loadTestSuite(resolvedEvalPath, repoRoot, { category });
    const tests = suite.tests;
    if (tests.length === 0) {
      console.error("No tests found in eval file.");
      process.exit(1);
    }
    let targetInfo = null;
    let targetName2 = "agent";
    let targetKind = "agent";
    let subagentModeAllowed = true;
    try {
      const selection = await selectTarget({
        testFilePath: resolvedEvalPath,
        repoRoot,
        cwd: evalDir,
        cliTargetName: target,
        explicitTargetsPath: targets,
        env: process.env
      });
      targetName2 = selection.targetName;
      const resolved = selection.resolvedTarget;
      subagentModeAllowed = resolved.subagentModeAllowed !== false;
      if (resolved.kind === "cli") {
        targetKind = "cli";
        subagentModeAllowed = false;
        const config = resolved.config;
        targetInfo = {
          kind: "cli",
          command: config.command,
          cwd: config.cwd ?? evalDir,
          timeoutMs: config.timeoutMs ?? 3e4
        };
      } else {
        targetKind = resolved.kind;
      }
    } catch {
    }
    const suiteName = tests[0]?.suite?.trim() ?? "";
    const safeSuiteName = suiteName ? suiteName.replace(/[\/\\:*?"<>|]/g, "_") : "";
    const testIds = [];
    for (const test of tests) {
      const subpath = safeSuiteName ? [safeSuiteName, test.id] : [test.id];
      const testDir = join3(outDir, ...subpath);
      await mkdir8(testDir, { recursive: true });
      testIds.push(test.id);
      const inputMessages = test.input.map((m) => ({
        role: m.role,
        content: typeof m.content === "string" ? m.content : m.content
      }));
      await writeJson(join3(testDir, "input.json"), {
        input: inputMessages,
        input_files: test.file_paths,
        ...test.description ? { description: test.description } : {},
        metadata: test.metadata ?? {}
      });
      if (targetInfo) {
        await writeJson(join3(testDir, "invoke.json"), {
          kind: "cli",
          command: targetInfo.command,
          cwd: targetInfo.cwd,
          timeout_ms: targetInfo.timeoutMs,
          env: {}
        });
      } else {
        await writeJson(join3(testDir, "invoke.json"), {
          kind: "agent",
          instructions: "Execute this task in the current workspace. The agent IS the target."
        });
      }
      await writeFile8(join3(testDir, "criteria.md"), test.criteria ?? "", "utf8");
      if (test.expected_output.length > 0 || test.reference_answer !== void 0 && test.reference_answer !== "") {
        await writeJson(join3(testDir, "expected_output.json"), {
          expected_output: test.expected_output,
          reference_answer: test.reference_answer ?? ""
        });
      }
      await writeGraderConfigs(testDir, test.assertions ?? [], evalDir);
    }
    await writeJson(join3(outDir, "manifest.json"), {
      eval_file: resolvedEvalPath,
      suite: suiteName || void 0,
      experiment: experiment || void 0,
      timestamp: (/* @__PURE__ */ new Date()).toISOString(),
      target: {
        name: targetName2,
        kind: targetKind,
        subagent_mode_allowed: subagentModeAllowed
      },
      test_ids: testIds
    });
    console.log(`Extracted ${testIds.length} test(s) to ${outDir}`);
    if (targetKind === "agent") {
      console.log(`
  Target: ${targetName2} (subagent-as-target mode)`);
      console.log(`  Tests:  ${testIds.join(", ")}`);
      console.log("");
      console.log("  Next steps for the orchestrating agent:");
      console.log("  1. Dispatch executor subagents \u2014 one per test case (all in parallel):");
      console.log("     - Each reads <run-dir>/<test-id>/input.json");
      console.log("     - Executes the task, writes <run-dir>/<test-id>/response.md");
      console.log("  2. Run script graders: agentv pipeline grade <run-dir>");
      console.log(
        "  3. Dispatch grader subagents \u2014 one per (test \xD7 LLM grader) pair (all in parallel):"
      );
      console.log(
        "     - Read agents/grader.md and embed its content as system instructions in each subagent prompt"
      );
      console.log("     - Each subagent reads llm_graders/<name>.json + response.md for its test");
      console.log("     - Each writes llm_grader_results/<name>.json");
      console.log("  4. Merge scores:     agentv pipeline bench <run-dir>");
      console.log("");
      console.log("  For the full procedure:");
      console.log("    agentv skills get agentv-bench --ref subagent-pipeline");
      console.log("");
    }
  }
});
async function writeGraderConfigs(testDir, assertions, evalDir) {
  const counts = { scriptGraders: 0, llmGraders: 0, builtinAssertions: 0 };
  const scriptGradersDir = join3(testDir, "script_graders");
  const llmGradersDir = join3(testDir, "llm_graders");
  let hasScriptGraders = false;
  let hasLlmGraders = false;
  for (const assertion of assertions) {
    if (assertion.type === "script") {
      if (!hasScriptGraders) {
        await mkdir8(scriptGradersDir, { recursive: true });
        hasScriptGraders = true;
      }
      const config = assertion;
      await writeJson(join3(scriptGradersDir, `${config.name}.json`), {
        name: config.name,
        type: "script",
        command: config.command,
        cwd: config.resolvedCwd ?? config.cwd ?? evalDir,
        weight: config.weight ?? 1,
        config: config.config ?? {}
      });
    } else if (assertion.type === "llm-grader" || assertion.type === "llm-rubric") {
      if (!hasLlmGraders) {
        await mkdir8(llmGradersDir, { recursive: true });
        hasLlmGraders = true;
      }
      const config = assertion;
      let promptContent = "";
      if (config.resolvedPromptPath) {
        try {
          promptContent = await readFile6(config.resolvedPromptPath, "utf8");
        } catch {
          promptContent = typeof config.prompt === "string" ? config.prompt : "";
        }
      } else if (typeof config.prompt === "string") {
        promptContent = config.prompt;
      }
      const rubrics = config.rubrics;
      const rubricsData = rubrics?.map((r) => ({
        id: r.id,
        outcome: r.outcome,
        weight: r.weight ?? 1,
        ...r.score_ranges ? { score_range: r.score_ranges } : {},
        ...r.required !== void 0 ? { required: r.required } : {},
        ...r.min_score !== void 0 ? { min_score: r.min_score } : {}
      }));
      await writeJson(join3(llmGradersDir, `${config.name}.json`), {
        name: config.name,
        type: config.type,
        prompt_content: promptContent,
        ...config.type === "llm-rubric" && config.value !== void 0 ? { value: config.value } : {},
        ...rubricsData && rubricsData.length > 0 ? { rubrics: rubricsData } : {},
        weight: config.weight ?? 1,
        threshold: 0.5,
        config: {}
      });
    } else if (BUILTIN_ASSERTION_TYPES.has(assertion.type)) {
      if (!hasScriptGraders) {
        await mkdir8(scriptGradersDir, { recursive: true });
        hasScriptGraders = true;
      }
      const config = assertion;
      await writeJson(join3(scriptGradersDir, `${config.name}.json`), {
        name: config.name,
        type: config.type,
        value: config.value,
        flags: config.flags,
        weight: config.weight ?? 1,
        negate: config.negate ?? false
      });
    }
  }
  return counts;
}
async function writeJson(filePath, data) {
  await writeFile8(filePath, `${JSON.stringify(data, null, 2)}
`, "utf8");
}

// src/commands/pipeline/run.ts
import { exec } from "node:child_process";
import { existsSync as existsSync7, readFileSync as readFileSync7, unlinkSync } from "node:fs";
import { mkdir as mkdir9, readFile as readFile7, readdir as readdir3, writeFile as writeFile9 } from "node:fs/promises";
import { tmpdir as tmpdir2 } from "node:os";
import { dirname as dirname2, join as join4, relative as relative2, resolve as resolve2 } from "node:path";
function extractInputText(input) {
  if (!input || input.length === 0) return "";
  if (input.length === 1) return input[0].content;
  return input.map((m) => `@[${m.role}]:
${m.content}`).join("\n\n");
}
function loadEnvFile(dir) {
  let current = resolve2(dir);
  while (true) {
    const candidate = join4(current, ".env");
    if (existsSync7(candidate)) {
      const env2 = {};
      for (const line of readFileSync7(candidate, "utf8").split("\n")) {
        const trimmed = line.trim();
        if (!trimmed || trimmed.startsWith("#")) continue;
        const eqIdx = trimmed.indexOf("=");
        if (eqIdx === -1) continue;
        env2[trimmed.slice(0, eqIdx).trim()] = trimmed.slice(eqIdx + 1).trim();
      }
      return env2;
    }
    const parent = dirname2(current);
    if (parent === current) break;
    current = parent;
  }
  return {};
}
var evalRunCommand2 = command({
  name: "run",
  description: "Extract inputs, invoke CLI targets, and run script graders (for agent targets, use pipeline input + subagents)",
  args: {
    evalPath: positional({
      type: string,
      displayName: "eval-path",
      description: "Path to eval YAML file"
    }),
    out: option({
      type: optional(string),
      long: "out",
      description: "Output directory for results (default: .agentv/results/<run_id>)"
    }),
    workers: option({
      type: optional(number),
      long: "workers",
      description: "Parallel workers for target invocation (default: targets.yaml workers, then 5)"
    }),
    experiment: option({
      type: optional(string),
      long: "experiment",
      description: "Experiment label (e.g. with_skills, without_skills)"
    }),
    graderType: option({
      type: optional(oneOf(["code", "none"])),
      long: "grader-type",
      description: 'Which grading phase to run: "code" runs script graders inline, omit to skip grading (use pipeline grade separately)'
    }),
    target: option({
      type: optional(string),
      long: "target",
      description: "Override target name from targets.yaml (mirrors eval run --target)"
    }),
    targets: option({
      type: optional(string),
      long: "targets",
      description: "Path to targets.yaml (overrides discovery)"
    })
  },
  handler: async ({ evalPath, out, workers, experiment, graderType, target, targets }) => {
    const resolvedEvalPath = resolve2(evalPath);
    const outDir = resolve2(out ?? buildDefaultRunDir(process.cwd(), experiment));
    const repoRoot = await findRepoRoot(dirname2(resolvedEvalPath));
    const evalDir = dirname2(resolvedEvalPath);
    const category = deriveCategory(relative2(process.cwd(), resolvedEvalPath));
    const suite = await loadTestSuite(resolvedEvalPath, repoRoot, { category });
    const tests = suite.tests;
    if (tests.length === 0) {
      console.error("No tests found in eval file.");
      process.exit(1);
    }
    let targetInfo = null;
    let targetName2 = "agent";
    let targetKind = "agent";
    let targetWorkers;
    try {
      const selection = await selectTarget({
        testFilePath: resolvedEvalPath,
        repoRoot,
        cwd: evalDir,
        cliTargetName: target,
        explicitTargetsPath: targets,
        env: process.env
      });
      targetName2 = selection.targetName;
      targetWorkers = selection.resolvedTarget.workers;
      if (selection.resolvedTarget.kind === "cli") {
        targetKind = "cli";
        const config = selection.resolvedTarget.config;
        targetInfo = {
          kind: "cli",
          command: config.command,
          cwd: config.cwd ?? evalDir,
          timeoutMs: config.timeoutMs ?? 3e4
        };
      }
    } catch {
    }
    const suiteName = tests[0]?.suite?.trim() ?? "";
    const safeSuiteName = suiteName ? suiteName.replace(/[\/\\:*?"<>|]/g, "_") : "";
    const testIds = [];
    for (const test of tests) {
      const subpath = safeSuiteName ? [safeSuiteName, test.id] : [test.id];
      const testDir = join4(outDir, ...subpath);
      await mkdir9(testDir, { recursive: true });
      testIds.push(test.id);
      const inputMessages = test.input.map((m) => ({
        role: m.role,
        content: typeof m.content === "string" ? m.content : m.content
      }));
      await writeJson2(join4(testDir, "input.json"), {
        input: inputMessages,
        input_files: test.file_paths,
        ...test.description ? { description: test.description } : {},
        metadata: test.metadata ?? {}
      });
      if (targetInfo) {
        await writeJson2(join4(testDir, "invoke.json"), {
          kind: "cli",
          command: targetInfo.command,
          cwd: targetInfo.cwd,
          timeout_ms: targetInfo.timeoutMs,
          env: {}
        });
      } else {
        await writeJson2(join4(testDir, "invoke.json"), {
          kind: "agent",
          instructions: "Execute this task in the current workspace. The agent IS the target."
        });
      }
      await writeFile9(join4(testDir, "criteria.md"), test.criteria ?? "", "utf8");
      if (test.expected_output.length > 0 || test.reference_answer !== void 0 && test.reference_answer !== "") {
        await writeJson2(join4(testDir, "expected_output.json"), {
          expected_output: test.expected_output,
          reference_answer: test.reference_answer ?? ""
        });
      }
      await writeGraderConfigs2(testDir, test.assertions ?? [], evalDir);
    }
    await writeJson2(join4(outDir, "manifest.json"), {
      eval_file: resolvedEvalPath,
      suite: suiteName || void 0,
      experiment: experiment || void 0,
      timestamp: (/* @__PURE__ */ new Date()).toISOString(),
      target: { name: targetName2, kind: targetKind },
      test_ids: testIds
    });
    console.log(`Extracted ${testIds.length} test(s) to ${outDir}`);
    if (targetInfo) {
      const envVars = loadEnvFile(evalDir);
      if (!process.env.AGENTV_RUN_TIMESTAMP) {
        process.env.AGENTV_RUN_TIMESTAMP = (/* @__PURE__ */ new Date()).toISOString().replace(/:/g, "-").replace(/\./g, "-");
      }
      const mergedEnv = { ...process.env, ...envVars, AGENTV_RUN_DIR: outDir };
      const maxWorkers = workers ?? targetWorkers ?? 5;
      let invCompleted = 0;
      const invTotal = testIds.length;
      const writeInvProgress = () => {
        process.stderr.write(`\rInvoking: ${invCompleted}/${invTotal} done`);
      };
      console.log(`Invoking ${invTotal} CLI target(s) (${maxWorkers} workers)...`);
      writeInvProgress();
      const invokeTarget = async (testId) => {
        const subpath = safeSuiteName ? [safeSuiteName, testId] : [testId];
        const testDir = join4(outDir, ...subpath);
        const invoke = JSON.parse(await readFile7(join4(testDir, "invoke.json"), "utf8"));
        if (invoke.kind !== "cli") return;
        const inputData = JSON.parse(await readFile7(join4(testDir, "input.json"), "utf8"));
        const template = invoke.command;
        const cwd = invoke.cwd;
        const timeoutMs = invoke.timeout_ms ?? 12e4;
        const promptFile = join4(tmpdir2(), `agentv-prompt-${testId}-${Date.now()}.txt`);
        const outputFile = join4(tmpdir2(), `agentv-output-${testId}-${Date.now()}.txt`);
        const inputText = extractInputText(inputData.input);
        await writeFile9(promptFile, inputText, "utf8");
        let rendered = template;
        rendered = rendered.replace("{PROMPT_FILE}", promptFile);
        rendered = rendered.replace("{OUTPUT_FILE}", outputFile);
        rendered = rendered.replace("{PROMPT}", inputText);
        const start = performance.now();
        try {
          await new Promise((resolveP, rejectP) => {
            exec(
              rendered,
              {
                cwd,
                timeout: timeoutMs,
                env: mergedEnv,
                maxBuffer: 10 * 1024 * 1024
              },
              (error) => {
                if (error) rejectP(error);
                else resolveP();
              }
            );
          });
          const durationMs = Math.round(performance.now() - start);
          let response;
          if (existsSync7(outputFile)) {
            response = readFileSync7(outputFile, "utf8");
          } else {
            response = "ERROR: No output file generated";
          }
          await writeFile9(join4(testDir, "response.md"), response, "utf8");
          await writeJson2(join4(testDir, "metrics.json"), {
            duration: {
              total_ms: durationMs,
              total_seconds: Math.round(durationMs / 10) / 100,
              source: "provider_reported"
            },
            tokens: { total: 0, input: 0, output: 0, reasoning: 0, source: "unavailable" },
            cost: { usd: null, source: "unavailable" },
            execution: { status: "ok" }
          });
          process.stderr.write(`
  ${testId}: OK (${durationMs}ms, ${response.length} chars)
`);
        } catch (error) {
          const durationMs = Math.round(performance.now() - start);
          const message = error instanceof Error ? error.message : String(error);
          const response = `ERROR: target failed \u2014 ${message}`;
          await writeFile9(join4(testDir, "response.md"), response, "utf8");
          await writeJson2(join4(testDir, "metrics.json"), {
            duration: {
              total_ms: durationMs,
              total_seconds: Math.round(durationMs / 10) / 100,
              source: "provider_reported"
            },
            tokens: { total: 0, input: 0, output: 0, reasoning: 0, source: "unavailable" },
            cost: { usd: null, source: "unavailable" },
            execution: { status: "execution_error" }
          });
          process.stderr.write(
            `
  ${testId}: FAILED (${durationMs}ms) \u2014 ${message.slice(0, 200)}
`
          );
        } finally {
          invCompleted++;
          writeInvProgress();
          try {
            if (existsSync7(promptFile)) unlinkSync(promptFile);
            if (existsSync7(outputFile)) unlinkSync(outputFile);
          } catch {
          }
        }
      };
      const pending = /* @__PURE__ */ new Set();
      for (const testId of testIds) {
        const task = invokeTarget(testId).then(() => {
          pending.delete(task);
        });
        pending.add(task);
        if (pending.size >= maxWorkers) {
          await Promise.race(pending);
        }
      }
      await Promise.all(pending);
      process.stderr.write("\n");
    } else {
      console.log("Subagent-as-target mode \u2014 the agent IS the target.");
      console.log("");
      console.log("  What happened: pipeline extracted inputs but did NOT invoke a CLI target.");
      console.log(
        "  The orchestrating agent must dispatch executor subagents to process each test."
      );
      console.log("");
      console.log("  Next steps:");
      console.log("  1. Dispatch executor subagents \u2014 one per test case (all in parallel):");
      console.log("     - Each reads <run-dir>/<test-id>/input.json");
      console.log("     - Executes the task, writes <run-dir>/<test-id>/response.md");
      console.log("  2. Run script graders: agentv pipeline grade <run-dir>");
      console.log(
        "  3. Dispatch grader subagents \u2014 one per (test x LLM grader) pair (all in parallel):"
      );
      console.log(
        "     - Read agents/grader.md and embed its content as system instructions in each subagent prompt"
      );
      console.log("     - Each subagent reads llm_graders/<name>.json + response.md");
      console.log("     - Each writes llm_grader_results/<name>.json");
      console.log("  4. Merge scores:       agentv pipeline bench <run-dir>");
      console.log("");
      console.log("  For the full procedure:");
      console.log("    agentv skills get agentv-bench --ref subagent-pipeline");
      console.log("");
    }
    if (graderType !== "code") {
      console.log(`
Done. Results in ${outDir}`);
      console.log("");
      if (targetKind === "agent") {
        console.log("  The agent must now:");
        console.log("  1. Dispatch executor subagents to generate response.md files");
        console.log("  2. Run script graders: agentv pipeline grade <run-dir>");
        console.log("  3. Dispatch grader subagents for llm_graders/ configs");
        console.log("  4. Merge scores:       agentv pipeline bench <run-dir>");
      } else {
        console.log("  To run script graders: agentv pipeline grade <run-dir>");
        console.log("  Or re-run with --grader-type code to grade inline.");
      }
      return;
    }
    const graderTasks = [];
    for (const testId of testIds) {
      const subpath = safeSuiteName ? [safeSuiteName, testId] : [testId];
      const testDir = join4(outDir, ...subpath);
      const scriptGradersDir = join4(testDir, "script_graders");
      const resultsDir = join4(testDir, "script_grader_results");
      let graderFiles;
      try {
        graderFiles = (await readdir3(scriptGradersDir)).filter((f) => f.endsWith(".json"));
      } catch {
        continue;
      }
      if (graderFiles.length === 0) continue;
      await mkdir9(resultsDir, { recursive: true });
      const responseText = await readFile7(join4(testDir, "response.md"), "utf8");
      const inputData = JSON.parse(await readFile7(join4(testDir, "input.json"), "utf8"));
      for (const graderFile of graderFiles) {
        graderTasks.push({ testId, testDir, resultsDir, graderFile, responseText, inputData });
      }
    }
    const graderConcurrency = workers ?? 10;
    const { totalGraders, totalPassed } = await runScriptGraders(graderTasks, graderConcurrency);
    console.log(`Graded ${totalGraders} script grader(s): ${totalPassed} passed`);
    console.log("");
    console.log(`Results in ${outDir}`);
    console.log("");
    console.log("  Remaining steps:");
    console.log("  1. If llm_graders/ configs exist, dispatch grader subagents");
    console.log(
      "     - Read agents/grader.md, embed as system instructions in each subagent prompt"
    );
    console.log("  2. Merge all scores: agentv pipeline bench <run-dir>");
  }
});
async function writeJson2(filePath, data) {
  await writeFile9(filePath, `${JSON.stringify(data, null, 2)}
`, "utf8");
}
async function writeGraderConfigs2(testDir, assertions, evalDir) {
  const scriptGradersDir = join4(testDir, "script_graders");
  const llmGradersDir = join4(testDir, "llm_graders");
  let hasScriptGraders = false;
  let hasLlmGraders = false;
  for (const assertion of assertions) {
    if (assertion.type === "script") {
      if (!hasScriptGraders) {
        await mkdir9(scriptGradersDir, { recursive: true });
        hasScriptGraders = true;
      }
      const config = assertion;
      await writeJson2(join4(scriptGradersDir, `${config.name}.json`), {
        name: config.name,
        type: "script",
        command: config.command,
        cwd: config.resolvedCwd ?? config.cwd ?? evalDir,
        weight: config.weight ?? 1,
        config: config.config ?? {}
      });
    } else if (assertion.type === "llm-grader" || assertion.type === "llm-rubric") {
      if (!hasLlmGraders) {
        await mkdir9(llmGradersDir, { recursive: true });
        hasLlmGraders = true;
      }
      const config = assertion;
      let promptContent = "";
      if (config.resolvedPromptPath) {
        try {
          promptContent = readFileSync7(config.resolvedPromptPath, "utf8");
        } catch {
          promptContent = typeof config.prompt === "string" ? config.prompt : "";
        }
      } else if (typeof config.prompt === "string") {
        promptContent = config.prompt;
      }
      const rubrics = config.rubrics;
      const rubricsData = rubrics?.map((r) => ({
        id: r.id,
        outcome: r.outcome,
        weight: r.weight ?? 1,
        ...r.score_ranges ? { score_range: r.score_ranges } : {},
        ...r.required !== void 0 ? { required: r.required } : {},
        ...r.min_score !== void 0 ? { min_score: r.min_score } : {}
      }));
      await writeJson2(join4(llmGradersDir, `${config.name}.json`), {
        name: config.name,
        type: config.type,
        prompt_content: promptContent,
        ...config.type === "llm-rubric" && config.value !== void 0 ? { value: config.value } : {},
        ...rubricsData && rubricsData.length > 0 ? { rubrics: rubricsData } : {},
        weight: config.weight ?? 1,
        threshold: 0.5,
        config: {}
      });
    }
  }
}

// src/commands/pipeline/index.ts
var pipelineCommand = subcommands({
  name: "pipeline",
  description: "Subagent-mode eval pipeline (input \u2192 executor subagents \u2192 grade \u2192 bench) \u2014 use this when the eval target is an AI agent (Claude, Codex, etc.)",
  cmds: {
    input: evalInputCommand,
    grade: evalGradeCommand,
    bench: evalBenchCommand,
    run: evalRunCommand2
  }
});

// src/commands/prepare/index.ts
import { cp, mkdir as mkdir10, rename, rm as rm2, writeFile as writeFile10 } from "node:fs/promises";
import path17 from "node:path";
function setupStatusFromHook(status) {
  if (status === "success") {
    return "ok";
  }
  if (status === "skipped") {
    return "skipped";
  }
  return "warning";
}
function setupStepsFromPrepared(prepared) {
  return [
    ...prepared.hookExecutions.map((hook) => ({
      name: `${hook.scope}_${hook.name}`,
      status: setupStatusFromHook(hook.status),
      ...hook.error !== void 0 && { message: hook.error }
    })),
    {
      name: "workspace_baseline",
      status: prepared.baseline.status === "initialized" ? "ok" : "skipped",
      ...prepared.baseline.status === "unavailable" && { message: "baseline unavailable" }
    }
  ];
}
function toRepoPins(pins) {
  return pins.map((pin) => ({
    ...pin.path !== void 0 && { path: pin.path },
    ...pin.repo !== void 0 && { repo: pin.repo },
    ...pin.commit !== void 0 && { commit: pin.commit },
    ...pin.ancestor !== void 0 && { ancestor: pin.ancestor },
    ...pin.sparse !== void 0 && { sparse: pin.sparse }
  }));
}
function remapWorkspacePaths(value, sourceWorkspacePath, targetWorkspacePath) {
  if (typeof value === "string") {
    const relativePath = path17.relative(sourceWorkspacePath, value);
    if (relativePath === "" || !!relativePath && !relativePath.startsWith("..") && !path17.isAbsolute(relativePath)) {
      return path17.join(targetWorkspacePath, relativePath);
    }
    return value;
  }
  if (Array.isArray(value)) {
    return value.map(
      (item) => remapWorkspacePaths(item, sourceWorkspacePath, targetWorkspacePath)
    );
  }
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        remapWorkspacePaths(item, sourceWorkspacePath, targetWorkspacePath)
      ])
    );
  }
  return value;
}
async function moveDirectory(sourcePath, destinationPath) {
  try {
    await rename(sourcePath, destinationPath);
  } catch (error) {
    if (error.code !== "EXDEV") {
      throw error;
    }
    await cp(sourcePath, destinationPath, { recursive: true });
    await rm2(sourcePath, { recursive: true, force: true });
  }
}
async function placePreparedWorkspace(prepared, destinationPath) {
  const sourcePath = prepared.workspacePath;
  if (path17.resolve(sourcePath) === path17.resolve(destinationPath)) {
    return destinationPath;
  }
  await mkdir10(path17.dirname(destinationPath), { recursive: true });
  await rm2(destinationPath, { recursive: true, force: true });
  if (prepared.cleanupPolicy.mode !== "static") {
    await moveDirectory(sourcePath, destinationPath);
    return destinationPath;
  }
  await cp(sourcePath, destinationPath, { recursive: true });
  return destinationPath;
}
function renderPrompt(options) {
  const taskInput = options.taskInput.trim() || "(No text input was provided.)";
  return [
    "# AgentV Prepared Attempt",
    "",
    "## Task Input",
    "",
    taskInput,
    "",
    "## Execution Instructions",
    "",
    `- Work in this workspace: ${options.workspacePath}`,
    `- Complete the task input for target: ${options.target}`,
    "- Leave the final files in the workspace for a later AgentV grading step.",
    "- Do not run AgentV graders or inspect eval answer keys, rubrics, or oracle data.",
    ""
  ].join("\n");
}
function toManifestWire(result) {
  return {
    schema_version: result.schemaVersion,
    eval_path: result.evalPath,
    test_id: result.testId,
    target: result.target,
    workspace_path: result.workspacePath,
    prompt_path: result.promptPath,
    setup_status: result.setupStatus,
    setup_steps: result.setupSteps.map((step) => ({
      name: step.name,
      status: step.status,
      ...step.message !== void 0 && { message: step.message }
    })),
    ...result.providerContext !== void 0 && { provider_context: result.providerContext },
    ...result.metadata !== void 0 && { metadata: result.metadata },
    repo_pins: result.repoPins.map((pin) => ({
      ...pin.path !== void 0 && { path: pin.path },
      ...pin.repo !== void 0 && { repo: pin.repo },
      ...pin.commit !== void 0 && { commit: pin.commit },
      ...pin.ancestor !== void 0 && { ancestor: pin.ancestor },
      ...pin.sparse !== void 0 && { sparse: pin.sparse }
    })),
    baseline: {
      status: result.baseline.status,
      ...result.baseline.commit !== void 0 && { commit: result.baseline.commit }
    },
    created_at: result.createdAt
  };
}
function toCommandOutputWire2(result) {
  return {
    ...toManifestWire(result),
    manifest_path: result.manifestPath
  };
}
async function selectPrepareTarget(options) {
  const selections = await selectMultipleTargets({
    testFilePath: options.evalPath,
    repoRoot: options.repoRoot,
    cwd: process.cwd(),
    env: process.env,
    targetNames: [options.target],
    targetRefs: options.targetRefs
  });
  const selection = selections[0];
  if (!selection) {
    throw new Error(`Target '${options.target}' could not be resolved`);
  }
  return {
    resolvedTarget: {
      ...selection.resolvedTarget,
      name: options.target
    },
    ...selection.targetHooks !== void 0 && { targetHooks: selection.targetHooks }
  };
}
async function prepareAttempt(options) {
  const evalPath = path17.resolve(options.evalPath);
  const outDir = path17.resolve(options.outDir);
  const evalDir = path17.dirname(evalPath);
  const repoRoot = await findRepoRoot(evalDir);
  await loadEnvFromHierarchy({ testFilePath: evalPath, repoRoot, verbose: false });
  const category = deriveCategory(path17.relative(process.cwd(), evalPath));
  const suite = await loadTestSuite(evalPath, repoRoot, { category });
  const test = suite.tests.find((candidate) => candidate.id === options.testId);
  if (!test) {
    throw new Error(`Test ID '${options.testId}' not found in ${evalPath}`);
  }
  const targetRefs = suite.targetSpec?.hooks !== void 0 && suite.targetSpec.name === options.target ? [
    ...suite.targetRefs ?? [],
    { name: suite.targetSpec.name, hooks: suite.targetSpec.hooks }
  ] : suite.targetRefs;
  const { resolvedTarget, targetHooks } = await selectPrepareTarget({
    evalPath,
    repoRoot,
    target: options.target,
    targetRefs
  });
  const prepared = await prepareEvalWorkspace({
    testFilePath: evalPath,
    repoRoot,
    target: resolvedTarget,
    ...targetHooks !== void 0 && { targetHooks },
    evalCases: suite.tests,
    testId: options.testId,
    verbose: false,
    retainOnSuccess: "keep",
    retainOnFailure: "keep"
  });
  await mkdir10(outDir, { recursive: true });
  const workspacePath = await placePreparedWorkspace(prepared, path17.join(outDir, "workspace"));
  const promptPath = path17.join(outDir, "prompt.md");
  const manifestPath = path17.join(outDir, "agentv_prepare.json");
  const prompt = renderPrompt({
    workspacePath,
    target: options.target,
    taskInput: prepared.promptSource.question
  });
  await writeFile10(promptPath, prompt, "utf8");
  const result = {
    schemaVersion: 1,
    evalPath,
    testId: prepared.testId,
    target: options.target,
    workspacePath,
    promptPath,
    manifestPath,
    setupStatus: "ok",
    setupSteps: setupStepsFromPrepared(prepared),
    ...prepared.providerContext !== void 0 && {
      providerContext: remapWorkspacePaths(
        prepared.providerContext,
        prepared.workspacePath,
        workspacePath
      )
    },
    ...prepared.metadata !== void 0 && {
      metadata: remapWorkspacePaths(prepared.metadata, prepared.workspacePath, workspacePath)
    },
    repoPins: toRepoPins(prepared.repoPins),
    baseline: prepared.baseline,
    createdAt: prepared.createdAt
  };
  await writeFile10(manifestPath, `${JSON.stringify(toManifestWire(result), null, 2)}
`, "utf8");
  return result;
}
function printHumanOutput2(result) {
  console.log(`Prepared attempt for ${result.testId} (${result.target})`);
  console.log(`Workspace: ${result.workspacePath}`);
  console.log(`Prompt: ${result.promptPath}`);
  console.log(`Manifest: ${result.manifestPath}`);
  console.log("");
  console.log("Next steps:");
  console.log("  1. Give prompt.md to the human or external agent.");
  console.log(`  2. Run the agent in ${result.workspacePath}.`);
  console.log("  3. Keep the final workspace for a later AgentV grading command.");
}
var prepareCommand = command({
  name: "prepare",
  description: "Prepare one eval test workspace and safe prompt without running the target",
  args: {
    evalPath: positional({
      type: string,
      displayName: "eval",
      description: "Path to an eval file"
    }),
    testId: option({
      type: string,
      long: "test-id",
      description: "Exact test ID to prepare"
    }),
    target: option({
      type: string,
      long: "target",
      description: "Target name this prepared attempt is for"
    }),
    out: option({
      type: string,
      long: "out",
      description: "Prepared-attempt output directory"
    }),
    format: option({
      type: optional(oneOf(["text", "json"])),
      long: "format",
      description: "Output format: text (default) or json"
    })
  },
  handler: async ({ evalPath, testId, target, out, format }) => {
    const result = await prepareAttempt({ evalPath, testId, target, outDir: out });
    if (format === "json") {
      console.log(JSON.stringify(toCommandOutputWire2(result), null, 2));
      return;
    }
    printHumanOutput2(result);
  }
});

// src/commands/trend/index.ts
import path18 from "node:path";
var colors2 = {
  reset: "\x1B[0m",
  bold: "\x1B[1m",
  dim: "\x1B[2m",
  green: "\x1B[32m",
  red: "\x1B[31m",
  yellow: "\x1B[33m",
  cyan: "\x1B[36m",
  gray: "\x1B[90m"
};
var noColor2 = process.env.NO_COLOR !== void 0 || !process.stdout.isTTY;
var c3 = noColor2 ? Object.fromEntries(Object.keys(colors2).map((k) => [k, ""])) : colors2;
var ansiPattern2 = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
function stripAnsi3(str) {
  return str.replace(ansiPattern2, "");
}
function padRight4(str, len) {
  const plainLen = stripAnsi3(str).length;
  return str + " ".repeat(Math.max(0, len - plainLen));
}
function padLeft3(str, len) {
  const plainLen = stripAnsi3(str).length;
  return " ".repeat(Math.max(0, len - plainLen)) + str;
}
function formatSignedNumber(value, digits = 3) {
  const sign = value >= 0 ? "+" : "";
  return `${sign}${value.toFixed(digits)}`;
}
function colorizeDirection(direction) {
  switch (direction) {
    case "improving":
      return `${c3.green}${direction}${c3.reset}`;
    case "degrading":
      return `${c3.red}${direction}${c3.reset}`;
    case "stable":
      return `${c3.gray}${direction}${c3.reset}`;
  }
}
function colorizeSlope(value) {
  if (value > 0) {
    return `${c3.green}${formatSignedNumber(value)}${c3.reset}`;
  }
  if (value < 0) {
    return `${c3.red}${formatSignedNumber(value)}${c3.reset}`;
  }
  return `${c3.gray}${formatSignedNumber(value)}${c3.reset}`;
}
function ensureTrendIndexPath(source, cwd) {
  const resolved = resolveResultSourcePath(source, cwd);
  if (!isRunManifestPath(resolved)) {
    throw new Error(
      `Unsupported result source for trend: ${source}. Use a run workspace directory or ${RESULT_INDEX_FILENAME2} manifest.`
    );
  }
  return resolved;
}
function resolveTrendSources(cwd, sources, last) {
  if (sources.length > 0 && last !== void 0) {
    throw new Error("Use either explicit run sources or --last, not both");
  }
  if (sources.length > 0) {
    return sources.map((source) => ensureTrendIndexPath(source, cwd));
  }
  if (last === void 0) {
    throw new Error("Provide one or more run workspaces or use --last <n>");
  }
  if (last < 2) {
    throw new Error("--last must be at least 2");
  }
  const metas = listResultFiles(cwd).filter((meta) => isRunManifestPath(meta.path)).slice(0, last);
  if (metas.length < 2) {
    throw new Error(
      "Trend analysis requires at least 2 canonical run workspaces in .agentv/results/"
    );
  }
  return metas.map((meta) => meta.path).reverse();
}
function filterRunRecords(records, sourcePath, suite, target) {
  return records.filter((record) => suite ? record.suite === suite : true).filter((record) => target ? record.target === target : true).map((record) => ({ ...record, sourcePath }));
}
function getRunLabel(sourcePath, timestamp) {
  if (timestamp) {
    return timestamp;
  }
  return path18.basename(path18.dirname(sourcePath));
}
function getRunSortKey(sourcePath, timestamp) {
  return timestamp ?? path18.basename(path18.dirname(sourcePath));
}
function mean2(values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}
function roundMetric(value, digits = 6) {
  return Number(value.toFixed(digits));
}
function computeMatchedTestIds(runs, allowMissingTests) {
  if (allowMissingTests) {
    return void 0;
  }
  const [firstRun, ...rest] = runs;
  const intersection = new Set(firstRun.map((record) => record.testId));
  for (const run2 of rest) {
    const runIds = new Set(run2.map((record) => record.testId));
    for (const testId of intersection) {
      if (!runIds.has(testId)) {
        intersection.delete(testId);
      }
    }
  }
  return [...intersection].sort();
}
function computeRegressionStats(values) {
  if (values.length < 2) {
    throw new Error("Trend analysis requires at least 2 runs");
  }
  const n = values.length;
  const meanX = (n - 1) / 2;
  const meanY = mean2(values);
  let numerator = 0;
  let denominator = 0;
  for (let i = 0; i < n; i++) {
    const dx = i - meanX;
    numerator += dx * (values[i] - meanY);
    denominator += dx * dx;
  }
  const slope = denominator === 0 ? 0 : numerator / denominator;
  const intercept = meanY - slope * meanX;
  let ssTot = 0;
  let ssRes = 0;
  for (let i = 0; i < n; i++) {
    const predicted = intercept + slope * i;
    ssTot += (values[i] - meanY) ** 2;
    ssRes += (values[i] - predicted) ** 2;
  }
  const rSquared = ssTot === 0 ? 1 : 1 - ssRes / ssTot;
  return { slope, intercept, rSquared };
}
function classifyTrendDirection(slope, slopeThreshold) {
  if (slope <= -slopeThreshold) {
    return "degrading";
  }
  if (slope >= slopeThreshold) {
    return "improving";
  }
  return "stable";
}
function determineTrendExitCode(direction, failOnDegrading) {
  return failOnDegrading && direction === "degrading" ? 1 : 0;
}
function analyzeTrend(params) {
  const { sourcePaths, suite, target, slopeThreshold, allowMissingTests, failOnDegrading } = params;
  if (sourcePaths.length < 2) {
    throw new Error("Trend analysis requires at least 2 runs");
  }
  const filteredRuns = sourcePaths.map((sourcePath) => {
    const records = filterRunRecords(loadLightweightResults(sourcePath), sourcePath, suite, target);
    if (records.length === 0) {
      const filters = [suite ? `suite=${suite}` : "", target ? `target=${target}` : ""].filter(Boolean).join(", ");
      const suffix = filters ? ` after filtering by ${filters}` : "";
      throw new Error(`Run has no matching records${suffix}: ${sourcePath}`);
    }
    return records;
  });
  const chronologicalRuns = filteredRuns.map((records, index) => ({
    sourcePath: sourcePaths[index],
    records,
    sortKey: getRunSortKey(sourcePaths[index], records[0]?.timestamp)
  })).sort((a, b) => a.sortKey.localeCompare(b.sortKey));
  const matchedTestIds = computeMatchedTestIds(
    chronologicalRuns.map((run2) => run2.records),
    allowMissingTests
  );
  if (!allowMissingTests && (!matchedTestIds || matchedTestIds.length === 0)) {
    throw new Error("No shared test IDs remain across the selected runs after filtering");
  }
  const runs = chronologicalRuns.map(({ records, sourcePath }) => {
    const applicableRecords = matchedTestIds === void 0 ? records : records.filter((record) => matchedTestIds.includes(record.testId));
    if (applicableRecords.length === 0) {
      throw new Error(`Run has no matched tests after intersection: ${sourcePath}`);
    }
    return {
      label: getRunLabel(sourcePath, applicableRecords[0]?.timestamp ?? records[0]?.timestamp),
      path: sourcePath,
      timestamp: applicableRecords[0]?.timestamp ?? records[0]?.timestamp,
      matchedTestCount: applicableRecords.length,
      meanScore: roundMetric(mean2(applicableRecords.map((record) => record.score)))
    };
  });
  const regressionStats = computeRegressionStats(runs.map((run2) => run2.meanScore));
  const direction = classifyTrendDirection(regressionStats.slope, slopeThreshold);
  return {
    runs,
    filters: {
      suite,
      target,
      allowMissingTests
    },
    summary: {
      runCount: runs.length,
      matchedTestCount: matchedTestIds?.length ?? Math.min(...runs.map((run2) => run2.matchedTestCount)),
      dateRange: {
        start: runs[0]?.timestamp,
        end: runs.at(-1)?.timestamp
      },
      slope: roundMetric(regressionStats.slope),
      intercept: roundMetric(regressionStats.intercept),
      rSquared: roundMetric(regressionStats.rSquared),
      direction
    },
    regression: {
      slopeThreshold,
      failOnDegrading,
      triggered: failOnDegrading && direction === "degrading"
    }
  };
}
function formatTrendTable(output) {
  const lines = [];
  const runLabelWidth = Math.max(3, ...output.runs.map((run2) => run2.label.length));
  const scoreWidth = Math.max(10, ...output.runs.map((run2) => run2.meanScore.toFixed(3).length));
  const matchWidth = Math.max(7, ...output.runs.map((run2) => String(run2.matchedTestCount).length));
  lines.push("");
  lines.push(`${c3.bold}Trend Analysis${c3.reset}`);
  lines.push("");
  lines.push(
    `${c3.bold}Runs:${c3.reset} ${output.summary.runCount} | ${c3.bold}Range:${c3.reset} ${output.summary.dateRange.start ?? "unknown"} \u2192 ${output.summary.dateRange.end ?? "unknown"}`
  );
  lines.push(
    `${c3.bold}Filters:${c3.reset} suite=${output.filters.suite ?? "*"} target=${output.filters.target ?? "*"} mode=${output.filters.allowMissingTests ? "independent" : "matched-tests"}`
  );
  lines.push(
    `${c3.bold}Matched Tests:${c3.reset} ${output.summary.matchedTestCount} | ${c3.bold}Verdict:${c3.reset} ${colorizeDirection(output.summary.direction)}`
  );
  lines.push("");
  const header = `  ${padRight4("Run", runLabelWidth)}  ${padLeft3("Tests", matchWidth)}  ${padLeft3("Mean Score", scoreWidth)}`;
  lines.push(`${c3.dim}${header}${c3.reset}`);
  lines.push(
    `${c3.dim}  ${"\u2500".repeat(runLabelWidth)}  ${"\u2500".repeat(matchWidth)}  ${"\u2500".repeat(scoreWidth)}${c3.reset}`
  );
  for (const run2 of output.runs) {
    lines.push(
      `  ${padRight4(run2.label, runLabelWidth)}  ${padLeft3(String(run2.matchedTestCount), matchWidth)}  ${padLeft3(run2.meanScore.toFixed(3), scoreWidth)}`
    );
  }
  lines.push("");
  lines.push(
    `${c3.bold}Summary:${c3.reset} slope=${colorizeSlope(output.summary.slope)} intercept=${output.summary.intercept.toFixed(3)} r\xB2=${output.summary.rSquared.toFixed(3)}`
  );
  lines.push(
    `${c3.bold}Regression Gate:${c3.reset} threshold=${output.regression.slopeThreshold.toFixed(3)} fail_on_degrading=${output.regression.failOnDegrading ? "true" : "false"} triggered=${output.regression.triggered ? `${c3.red}true${c3.reset}` : "false"}`
  );
  lines.push("");
  return lines.join("\n");
}
var trendCommand = command({
  name: "trend",
  description: "Analyze score drift across multiple historical run manifests",
  args: {
    runs: restPositionals({
      type: string,
      displayName: "runs",
      description: "Run workspace directories or run manifest paths"
    }),
    last: option({
      type: optional(number),
      long: "last",
      description: "Use the most recent N runs from .agentv/results/"
    }),
    suite: option({
      type: optional(string),
      long: "suite",
      description: "Filter records to a suite name"
    }),
    target: option({
      type: optional(string),
      long: "target",
      description: "Filter records to a target name"
    }),
    slopeThreshold: option({
      type: optional(number),
      long: "slope-threshold",
      description: "Minimum absolute slope required to classify improving or degrading"
    }),
    failOnDegrading: flag({
      long: "fail-on-degrading",
      description: "Exit non-zero when the detected trend is degrading beyond the slope threshold"
    }),
    allowMissingTests: flag({
      long: "allow-missing-tests",
      description: "Aggregate each run independently instead of intersecting test IDs across runs"
    }),
    format: option({
      type: optional(oneOf(["table", "json"])),
      long: "format",
      short: "f",
      description: "Output format: table (default) or json"
    }),
    json: flag({
      long: "json",
      description: "Output JSON format (shorthand for --format=json)"
    })
  },
  handler: async ({
    runs,
    last,
    suite,
    target,
    slopeThreshold,
    failOnDegrading,
    allowMissingTests,
    format,
    json
  }) => {
    const outputFormat = json ? "json" : format ?? "table";
    const effectiveSlopeThreshold = slopeThreshold ?? 0.01;
    try {
      if (effectiveSlopeThreshold < 0) {
        throw new Error("--slope-threshold must be non-negative");
      }
      const sourcePaths = resolveTrendSources(process.cwd(), runs, last);
      const output = analyzeTrend({
        sourcePaths,
        suite,
        target,
        slopeThreshold: effectiveSlopeThreshold,
        allowMissingTests,
        failOnDegrading
      });
      if (outputFormat === "json") {
        console.log(JSON.stringify(toSnakeCaseDeep(output), null, 2));
      } else {
        console.log(formatTrendTable(output));
      }
      process.exit(determineTrendExitCode(output.summary.direction, failOnDegrading));
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
  }
});

// src/commands/results/combine.ts
import * as readline2 from "node:readline/promises";

// src/commands/results/combine-run.ts
import {
  copyFileSync,
  cpSync,
  existsSync as existsSync8,
  mkdirSync as mkdirSync2,
  readFileSync as readFileSync8,
  rmSync,
  statSync as statSync4,
  writeFileSync as writeFileSync3
} from "node:fs";
import path19 from "node:path";
var CombineDuplicateError = class extends Error {
  constructor(conflicts) {
    super(`Duplicate result rows found for ${conflicts.length} (test_id, target) pair(s)`);
    this.conflicts = conflicts;
    this.name = "CombineDuplicateError";
  }
};
function parseJsonlLine(line) {
  return JSON.parse(line);
}
function readManifestRecords(manifestPath) {
  return readFileSync8(manifestPath, "utf8").split(/\r?\n/).map((line) => line.trim()).filter(Boolean).map(parseJsonlLine);
}
function readSummaryMetadata(manifestPath) {
  try {
    const summaryPath = path19.join(path19.dirname(manifestPath), "summary.json");
    const parsed = JSON.parse(readFileSync8(summaryPath, "utf8"));
    return {
      timestamp: parsed.metadata?.timestamp,
      displayName: parsed.metadata?.display_name,
      experiment: parsed.metadata?.experiment
    };
  } catch {
    return {};
  }
}
function earliestTimestamp(values) {
  return values.filter((value) => typeof value === "string" && value.trim().length > 0).sort((a, b) => a.localeCompare(b))[0];
}
function latestTimestamp(values) {
  return values.filter((value) => typeof value === "string" && value.trim().length > 0).sort((a, b) => b.localeCompare(a))[0];
}
function resultKey(record, result) {
  return buildTestTargetKey(
    record.test_id ?? result.testId,
    record.target ?? result.target,
    record.variant ?? result.variant
  );
}
function loadSources(sources) {
  return sources.map((source, index) => {
    const manifestPath = resolveRunManifestPath(source.manifestPath);
    const records = readManifestRecords(manifestPath);
    const results = loadManifestResults(manifestPath);
    if (records.length !== results.length) {
      throw new Error(`Manifest could not be hydrated completely: ${manifestPath}`);
    }
    const metadata = readSummaryMetadata(manifestPath);
    return {
      ...source,
      index,
      manifestPath,
      displayName: metadata.displayName ?? source.displayName,
      records,
      results,
      startedAt: earliestTimestamp(records.map((record) => record.timestamp)) ?? earliestTimestamp(results.map((result) => result.timestamp)) ?? metadata.timestamp
    };
  });
}
function isIncomingLatest(existing, incoming) {
  const existingTimestamp = latestTimestamp([existing.record.timestamp, existing.result.timestamp]) ?? "";
  const incomingTimestamp = latestTimestamp([incoming.record.timestamp, incoming.result.timestamp]) ?? "";
  if (incomingTimestamp !== existingTimestamp) {
    return incomingTimestamp > existingTimestamp;
  }
  return incoming.source.index > existing.source.index;
}
function buildConflict(existing, incoming, key) {
  const latest = isIncomingLatest(existing, incoming) ? incoming : existing;
  return {
    key,
    test_id: incoming.record.test_id ?? incoming.result.testId ?? "unknown",
    target: incoming.record.target ?? incoming.result.target ?? "unknown",
    kept_source_id: existing.source.id,
    incoming_source_id: incoming.source.id,
    kept_timestamp: existing.record.timestamp ?? existing.result.timestamp,
    incoming_timestamp: incoming.record.timestamp ?? incoming.result.timestamp,
    latest_source_id: latest.source.id
  };
}
function selectRows(sources, duplicatePolicy, promptChoices) {
  const rows = [];
  const selectedByKey = /* @__PURE__ */ new Map();
  const conflicts = [];
  for (const source of sources) {
    for (let i = 0; i < source.records.length; i++) {
      const row = {
        source,
        record: source.records[i],
        result: source.results[i]
      };
      const key = resultKey(row.record, row.result);
      const existingIndex = selectedByKey.get(key);
      if (existingIndex === void 0) {
        selectedByKey.set(key, rows.length);
        rows.push(row);
        continue;
      }
      const existing = rows[existingIndex];
      const conflict = buildConflict(existing, row, key);
      conflicts.push(conflict);
      if (duplicatePolicy === "error") {
        continue;
      }
      const shouldUseLatest = duplicatePolicy === "latest" || duplicatePolicy === "prompt" && promptChoices?.get(key) === "replace";
      if (shouldUseLatest && isIncomingLatest(existing, row)) {
        rows[existingIndex] = row;
      }
    }
  }
  if (conflicts.length > 0 && duplicatePolicy === "error") {
    throw new CombineDuplicateError(conflicts);
  }
  if (conflicts.some((conflict) => !promptChoices?.has(conflict.key)) && duplicatePolicy === "prompt") {
    throw new CombineDuplicateError(conflicts);
  }
  return { rows, conflicts };
}
function inspectRunSourceDuplicates(sources) {
  const loaded = loadSources(sources);
  try {
    selectRows(loaded, "error");
    return [];
  } catch (err2) {
    if (err2 instanceof CombineDuplicateError) {
      return err2.conflicts;
    }
    throw err2;
  }
}
function sanitizePathSegment(value) {
  return value.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "combined-run";
}
function defaultDisplayName(sources) {
  return `Combined run (${sources.map((source) => source.displayName).join(" + ")})`;
}
function defaultCombinedRunDirForExperiment(cwd, experiment, startedAt) {
  const parsed = startedAt ? new Date(startedAt) : void 0;
  const timestamp = parsed && !Number.isNaN(parsed.getTime()) ? createRunDirName(parsed) : sanitizePathSegment(startedAt ?? "unknown-time");
  return buildDefaultRunDirFromName(cwd, experiment, timestamp);
}
function uniqueRunDir(baseDir) {
  if (!existsSync8(baseDir)) return baseDir;
  let suffix = 1;
  while (existsSync8(`${baseDir}-${suffix}`)) {
    suffix++;
  }
  return `${baseDir}-${suffix}`;
}
function toRunId(cwd, runDir) {
  const relative3 = relativeRunPathFromCwd(cwd, runDir);
  return relative3 ?? path19.basename(runDir);
}
function resolveCombinedExperiment(sources, requestedExperiment) {
  const experiments = [...new Set(sources.map((source) => source.experiment))];
  const normalizedRequested = requestedExperiment?.trim() ? normalizeExperimentName(requestedExperiment) : void 0;
  if (experiments.length === 1) {
    const sourceExperiment = experiments[0];
    if (normalizedRequested === void 0) {
      return sourceExperiment;
    }
    if (normalizedRequested !== sourceExperiment) {
      throw new Error(`Combined runs from the same experiment must inherit "${sourceExperiment}".`);
    }
    return sourceExperiment;
  }
  if (normalizedRequested !== void 0) {
    return normalizedRequested;
  }
  throw new Error(
    `Combining runs from multiple experiments requires an experiment name. Source experiments: ${experiments.sort().join(", ")}`
  );
}
var MANIFEST_PATH_FIELDS = [
  "result_dir",
  "summary_path",
  "grading_path",
  "timing_path",
  "input_path",
  "output_path",
  "response_path",
  "transcript_path",
  "transcript_raw_path",
  "metrics_path",
  "raw_provider_log_path",
  "test_dir",
  "task_dir",
  "eval_path",
  "targets_path",
  "files_path",
  "graders_path"
];
var POINTER_FAMILIES = {
  transcript: "transcripts"
};
function isSafeRelativeArtifactPath(relativePath) {
  return !path19.isAbsolute(relativePath) && !relativePath.split(/[\\/]+/).includes("..");
}
function copyReferencedArtifact(sourceBaseDir, outputDir, sourceIndex, relativePath) {
  if (!relativePath) return void 0;
  if (!isSafeRelativeArtifactPath(relativePath)) {
    throw new Error(`Unsafe artifact path in source manifest: ${relativePath}`);
  }
  const sourcePath = path19.join(sourceBaseDir, relativePath);
  if (!existsSync8(sourcePath)) {
    return relativePath;
  }
  const rewritten = path19.posix.join(`sources/source-${sourceIndex + 1}`, relativePath);
  const destPath = path19.join(outputDir, rewritten);
  const sourceStat = statSync4(sourcePath);
  mkdirSync2(path19.dirname(destPath), { recursive: true });
  if (sourceStat.isDirectory()) {
    cpSync(sourcePath, destPath, { recursive: true });
  } else if (sourceStat.isFile()) {
    copyFileSync(sourcePath, destPath);
  }
  return rewritten;
}
function rewriteArtifactPointer(pointerName, pointer, sourceBaseDir, outputDir, sourceIndex) {
  if (!pointer) {
    return void 0;
  }
  if (!isSafeRelativeArtifactPath(pointer.path)) {
    throw new Error(`Unsafe artifact path in source manifest: ${pointer.path}`);
  }
  const sourcePath = path19.join(sourceBaseDir, pointer.path);
  if (!existsSync8(sourcePath)) {
    return { ...pointer };
  }
  const rewrittenPath = copyReferencedArtifact(sourceBaseDir, outputDir, sourceIndex, pointer.path);
  if (!rewrittenPath) {
    return { ...pointer };
  }
  const family = pointer.family ?? POINTER_FAMILIES[pointerName];
  return {
    ...pointer,
    path: rewrittenPath,
    key: path19.posix.join(family, rewrittenPath)
  };
}
function rewriteTranscriptArtifactPointer(pointer, sourceBaseDir, outputDir, sourceIndex) {
  return rewriteArtifactPointer("transcript", pointer, sourceBaseDir, outputDir, sourceIndex);
}
function rewriteArtifactPointers(pointers, sourceBaseDir, outputDir, sourceIndex) {
  if (!pointers) {
    return void 0;
  }
  const transcript = rewriteTranscriptArtifactPointer(
    pointers.transcript,
    sourceBaseDir,
    outputDir,
    sourceIndex
  );
  return transcript ? { transcript } : void 0;
}
function removeCopiedDeprecatedTraceArtifact(row, outputDir, sourceBaseDir) {
  const tracePath = row.record.trace_path;
  if (!tracePath || !isSafeRelativeArtifactPath(tracePath)) {
    return;
  }
  if (!existsSync8(path19.join(sourceBaseDir, tracePath))) {
    return;
  }
  const copiedTracePath = path19.join(outputDir, `sources/source-${row.source.index + 1}`, tracePath);
  rmSync(copiedTracePath, { force: true });
}
function rewriteAndCopyRecord(row, outputDir, experiment) {
  const sourceBaseDir = path19.dirname(row.source.manifestPath);
  const rewritten = { ...row.record };
  rewritten.experiment = experiment;
  for (const field of MANIFEST_PATH_FIELDS) {
    rewritten[field] = copyReferencedArtifact(
      sourceBaseDir,
      outputDir,
      row.source.index,
      row.record[field]
    );
  }
  const artifactPointers = rewriteArtifactPointers(
    row.record.artifact_pointers,
    sourceBaseDir,
    outputDir,
    row.source.index
  );
  rewritten.artifact_pointers = artifactPointers;
  removeCopiedDeprecatedTraceArtifact(row, outputDir, sourceBaseDir);
  rewritten.trace_path = void 0;
  if (row.record.transcript_path && rewritten.transcript_path === row.record.transcript_path && artifactPointers?.transcript?.path) {
    rewritten.transcript_path = artifactPointers.transcript.path;
  }
  return rewritten;
}
function writeJson3(filePath, value) {
  writeFileSync3(filePath, `${JSON.stringify(value, null, 2)}
`, "utf8");
}
function writeJsonl(filePath, records) {
  writeFileSync3(
    filePath,
    `${records.map((record) => JSON.stringify(record)).join("\n")}
`,
    "utf8"
  );
}
function buildCombineRunSources(sourcePaths, cwd, options) {
  return sourcePaths.map((sourcePath, index) => {
    const manifestPath = resolveResultSourcePath(sourcePath, cwd);
    const runDir = path19.dirname(resolveRunManifestPath(manifestPath));
    const relativeRunPath = relativeRunPathFromCwd(cwd, runDir);
    if (!relativeRunPath) {
      throw new Error(
        `Run workspace is outside the canonical results layout: ${runDir}. Expected .agentv/results/<run_id>`
      );
    }
    const records = readManifestRecords(manifestPath);
    const summaryMetadata = readSummaryMetadata(manifestPath);
    const experiment = summaryMetadata.experiment ?? records.find((record) => typeof record.experiment === "string")?.experiment ?? "default";
    return {
      id: options?.ids?.[index] ?? toRunId(cwd, runDir),
      displayName: options?.displayNames?.[index] ?? path19.basename(runDir),
      manifestPath,
      experiment: normalizeExperimentName(experiment)
    };
  });
}
function combineRunSources(options) {
  if (options.sources.length < 2) {
    throw new Error("Select at least two runs to combine");
  }
  const loadedSources = loadSources(options.sources);
  const startedAt = earliestTimestamp(loadedSources.map((source) => source.startedAt));
  const experiment = resolveCombinedExperiment(loadedSources, options.experiment);
  const displayName = options.displayName?.trim() || defaultDisplayName(loadedSources);
  const runDir = uniqueRunDir(
    options.outputDir ? path19.resolve(options.cwd, options.outputDir) : defaultCombinedRunDirForExperiment(options.cwd, experiment, startedAt)
  );
  const relativeOutputRunPath = relativeRunPathFromCwd(options.cwd, runDir);
  if (!relativeOutputRunPath) {
    throw new Error(`Output run workspace must use .agentv/results/<run_id>: ${runDir}`);
  }
  const { rows, conflicts } = selectRows(
    loadedSources,
    options.duplicatePolicy,
    options.promptChoices
  );
  const results = rows.map((row) => row.result).sort((a, b) => {
    const left = a.timestamp ?? "";
    const right = b.timestamp ?? "";
    return left.localeCompare(right);
  });
  mkdirSync2(runDir, { recursive: true });
  const records = rows.map((row) => rewriteAndCopyRecord(row, runDir, experiment));
  const manifestPath = path19.join(runDir, RESULT_INDEX_FILENAME2);
  writeJsonl(manifestPath, records);
  const summary = buildRunSummaryArtifact(
    results,
    "",
    "combined",
    path19.basename(runDir),
    results.length
  );
  const summaryWithMetadata = {
    ...summary,
    metadata: {
      ...summary.metadata,
      timestamp: startedAt ?? summary.metadata.timestamp,
      display_name: displayName,
      experiment,
      combined_from_run_ids: loadedSources.map((source) => source.id),
      combined_from_display_names: loadedSources.map((source) => source.displayName),
      duplicate_policy: options.duplicatePolicy
    }
  };
  const summaryPath = path19.join(runDir, "summary.json");
  writeJson3(summaryPath, summaryWithMetadata);
  return {
    runDir,
    runId: toRunId(options.cwd, runDir),
    manifestPath,
    summaryPath,
    displayName,
    experiment,
    combinedFromRunIds: loadedSources.map((source) => source.id),
    duplicateConflicts: conflicts,
    testCount: rows.length,
    targetCount: new Set(results.map((result) => result.target ?? "unknown")).size
  };
}

// src/commands/results/combine.ts
async function collectPromptDuplicateChoices(conflicts, ask) {
  const choices = /* @__PURE__ */ new Map();
  let applyToAll;
  for (const conflict of conflicts) {
    if (choices.has(conflict.key)) continue;
    if (applyToAll) {
      choices.set(conflict.key, applyToAll);
      continue;
    }
    console.log(
      `Duplicate ${conflict.test_id} / ${conflict.target}: kept ${conflict.kept_source_id}, latest is ${conflict.latest_source_id}.`
    );
    const answer = (await ask("Replace with latest? [y]es/[n]o/[a]ll latest/[k]eep all: ")).trim().toLowerCase();
    if (answer === "a" || answer === "all") {
      applyToAll = "replace";
    } else if (answer === "k" || answer === "keep") {
      applyToAll = "keep";
    }
    const choice = applyToAll ?? (answer === "y" || answer === "yes" ? "replace" : "keep");
    choices.set(conflict.key, choice);
  }
  return choices;
}
async function promptDuplicateChoices(conflicts) {
  const rl = readline2.createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await collectPromptDuplicateChoices(conflicts, (message) => rl.question(message));
  } finally {
    rl.close();
  }
}
function defaultDuplicatePolicy(policy) {
  if (policy) return policy;
  return process.stdin.isTTY && process.stdout.isTTY ? "prompt" : "error";
}
function parseDuplicatePolicy(policy) {
  if (policy === "prompt" || policy === "error" || policy === "latest") {
    return policy;
  }
  return void 0;
}
function uniqueSourceExperiments(sources) {
  return [...new Set(sources.map((source) => source.experiment))].sort();
}
async function promptExperimentName(experiments) {
  const rl = readline2.createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question(
      `Source runs span experiments (${experiments.join(", ")}). New experiment name: `
    );
    return answer.trim() || void 0;
  } finally {
    rl.close();
  }
}
var resultsCombineCommand = command({
  name: "combine",
  description: "Combine two or more partial local run workspaces into a new run workspace",
  args: {
    sources: restPositionals({
      type: string,
      displayName: "source",
      description: "Run workspace directory or run manifest"
    }),
    output: option({
      type: optional(string),
      long: "output",
      short: "o",
      description: "Output run workspace directory (defaults to .agentv/results/<earliest-source-time>)"
    }),
    experiment: option({
      type: optional(string),
      long: "experiment",
      description: "Experiment namespace for the combined run. Required when sources span multiple experiments."
    }),
    displayName: option({
      type: optional(string),
      long: "display-name",
      description: "Display name stored in summary.json metadata"
    }),
    duplicatePolicy: option({
      type: optional(oneOf(["prompt", "error", "latest"])),
      long: "duplicate-policy",
      description: "How to handle duplicate (test_id, target) rows: prompt interactively, error, or keep the latest timestamp"
    })
  },
  handler: async (args) => {
    if (args.sources.length < 2) {
      console.error("Error: provide at least two run workspaces or run manifests");
      process.exit(1);
    }
    const cwd = process.cwd();
    const sources = buildCombineRunSources(args.sources, cwd);
    const sourceExperiments = uniqueSourceExperiments(sources);
    let experiment = args.experiment;
    if (!experiment && sourceExperiments.length > 1 && process.stdin.isTTY && process.stdout.isTTY) {
      experiment = await promptExperimentName(sourceExperiments);
    }
    if (!experiment && sourceExperiments.length > 1) {
      console.error(
        `Error: combining runs from multiple experiments requires --experiment <name>. Source experiments: ${sourceExperiments.join(", ")}`
      );
      process.exit(1);
    }
    const duplicatePolicy = defaultDuplicatePolicy(parseDuplicatePolicy(args.duplicatePolicy));
    let promptChoices;
    if (duplicatePolicy === "prompt") {
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        console.error(
          "Error: --duplicate-policy prompt requires an interactive terminal; use --duplicate-policy error or latest"
        );
        process.exit(1);
      }
      const conflicts = inspectRunSourceDuplicates(sources);
      if (conflicts.length > 0) {
        promptChoices = await promptDuplicateChoices(conflicts);
      }
    }
    try {
      const result = combineRunSources({
        cwd,
        sources,
        outputDir: args.output,
        experiment,
        displayName: args.displayName,
        duplicatePolicy,
        promptChoices
      });
      console.log(`Combined ${result.testCount} result row(s) into ${result.runDir}`);
      console.log(`  Run ID: ${result.runId}`);
      console.log(`  Summary: ${result.summaryPath}`);
      if (result.duplicateConflicts.length > 0) {
        console.log(`  Duplicates handled: ${result.duplicateConflicts.length}`);
      }
    } catch (err2) {
      const message = err2 instanceof Error ? err2.message : String(err2);
      console.error(`Error: ${message}`);
      process.exit(1);
    }
  }
});

// src/commands/results/delete.ts
import * as readline3 from "node:readline/promises";

// src/commands/results/delete-run.ts
import { existsSync as existsSync9, rmSync as rmSync2 } from "node:fs";
import path20 from "node:path";
function assertLocalRunManifest(cwd, manifestPath, runId) {
  const resolvedManifestPath = path20.resolve(manifestPath);
  if (!isRunManifestPath(resolvedManifestPath)) {
    throw new Error(`Expected a run workspace directory or ${RESULT_INDEX_FILENAME2} manifest`);
  }
  const runDir = path20.dirname(resolvedManifestPath);
  if (!relativeRunPathFromCwd(cwd, runDir)) {
    throw new Error("Run workspace is outside the local results directory");
  }
  if (!existsSync9(resolvedManifestPath)) {
    throw new Error(`Run not found: ${runId}`);
  }
  return { runId, runDir, manifestPath: resolvedManifestPath };
}
function resolveDeleteRunTarget(cwd, runIdOrPath) {
  const requested = runIdOrPath.trim();
  if (!requested) {
    throw new Error("Run ID is required");
  }
  if (isRemoteRunId(requested)) {
    throw new Error("Run deletion is only available for local runs");
  }
  const localMeta = listResultFiles(cwd).find((run2) => run2.filename === requested);
  if (localMeta) {
    return assertLocalRunManifest(cwd, localMeta.path, requested);
  }
  const resolvedSource = resolveResultSourcePath(requested, cwd);
  if (!existsSync9(resolvedSource)) {
    throw new Error(`Run not found: ${requested}`);
  }
  const manifestPath = resolveRunManifestPath(resolvedSource);
  return assertLocalRunManifest(cwd, manifestPath, requested);
}
function deleteLocalRun(cwd, runIdOrPath) {
  const target = resolveDeleteRunTarget(cwd, runIdOrPath);
  rmSync2(target.runDir, { recursive: true, force: false });
  return { ...target, deleted: true };
}

// src/commands/results/delete.ts
async function confirm(message) {
  const rl = readline3.createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await rl.question(`${message} [y/N] `)).trim().toLowerCase();
    return answer === "y" || answer === "yes";
  } finally {
    rl.close();
  }
}
var resultsDeleteCommand = command({
  name: "delete",
  description: "Delete one or more local run workspaces",
  args: {
    runs: restPositionals({
      type: string,
      displayName: "run",
      description: "Local run ID, run workspace directory, or run manifest"
    }),
    yes: flag({
      long: "yes",
      short: "y",
      description: "Skip confirmation prompt"
    })
  },
  handler: async ({ runs, yes }) => {
    if (runs.length === 0) {
      console.error("Error: provide at least one local run ID or run workspace path");
      process.exit(1);
    }
    const cwd = process.cwd();
    try {
      const targets = runs.map((run2) => resolveDeleteRunTarget(cwd, run2));
      if (!yes) {
        const confirmed = await confirm(`Delete ${targets.length} local run workspace(s)?`);
        if (!confirmed) {
          console.log("Cancelled.");
          return;
        }
      }
      for (const run2 of runs) {
        const deleted = deleteLocalRun(cwd, run2);
        console.log(`Deleted ${deleted.runId}: ${deleted.runDir}`);
      }
    } catch (err2) {
      const message = err2 instanceof Error ? err2.message : String(err2);
      console.error(`Error: ${message}`);
      process.exit(1);
    }
  }
});

// src/commands/results/export.ts
import { cpSync as cpSync2, existsSync as existsSync11, readFileSync as readFileSync9 } from "node:fs";
import path22 from "node:path";

// src/commands/results/projection-bundle.ts
import { createHash } from "node:crypto";
import { mkdir as mkdir11, writeFile as writeFile11 } from "node:fs/promises";
import path21 from "node:path";
var PROJECTION_BUNDLE_FILENAME = "projection_bundle.json";
var PROJECTION_BUNDLE_SCHEMA_VERSION = "agentv.projection_bundle.v1";
function dropUndefined(value) {
  return Object.fromEntries(
    Object.entries(value).filter(([, entryValue]) => entryValue !== void 0)
  );
}
function toPortablePath(filePath, cwd) {
  const absolutePath = path21.resolve(filePath);
  const absoluteCwd = path21.resolve(cwd ?? process.cwd());
  const relative3 = path21.relative(absoluteCwd, absolutePath);
  const portable = relative3 && !relative3.startsWith("..") && !path21.isAbsolute(relative3) ? relative3 : absolutePath;
  return portable.split(path21.sep).join("/");
}
function stableDate(value) {
  const parsed = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(parsed) ? new Date(parsed) : /* @__PURE__ */ new Date(0);
}
function bundleCreatedAt(results) {
  const timestamps = results.map((result) => stableDate(result.timestamp).toISOString()).sort((a, b) => a.localeCompare(b));
  return timestamps[0] ?? (/* @__PURE__ */ new Date(0)).toISOString();
}
function shortHash(parts, length = 20) {
  return createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, length);
}
function artifactRefs(indexEntry, options) {
  const metadataRefs = dropUndefined({
    status: options.status,
    metrics_path: indexEntry.metrics_path
  });
  if (!options.includeRawContent) {
    return metadataRefs;
  }
  return dropUndefined({
    ...metadataRefs,
    result_dir: indexEntry.result_dir,
    summary_path: indexEntry.summary_path,
    grading_path: indexEntry.grading_path,
    input_path: indexEntry.input_path,
    output_path: indexEntry.output_path,
    answer_path: indexEntry.answer_path,
    transcript_path: indexEntry.transcript_path,
    transcript_raw_path: indexEntry.transcript_raw_path,
    metrics_path: indexEntry.metrics_path,
    test_dir: indexEntry.test_dir,
    task_dir: indexEntry.task_dir,
    eval_path: indexEntry.eval_path,
    targets_path: indexEntry.targets_path,
    files_path: indexEntry.files_path,
    graders_path: indexEntry.graders_path
  });
}
function removeTranscriptMessageMetadata(envelope) {
  return {
    ...envelope,
    trace: {
      ...envelope.trace,
      spans: envelope.trace.spans.map((span) => ({
        ...span,
        events: span.events?.map((event) => {
          const transcriptMessage = event.attributes?.["agentv.transcript.message"];
          if (!transcriptMessage || typeof transcriptMessage !== "object" || Array.isArray(transcriptMessage)) {
            return event;
          }
          const { metadata: _metadata, ...safeMessage } = transcriptMessage;
          return {
            ...event,
            attributes: {
              ...event.attributes,
              "agentv.transcript.message": safeMessage
            }
          };
        })
      }))
    }
  };
}
function safeEnvelope(envelope, options) {
  if (options.includeRawContent) {
    return envelope;
  }
  const withoutRawEvidence = removeTranscriptMessageMetadata({
    ...envelope,
    source: {
      ...envelope.source,
      metadata: void 0
    },
    artifacts: void 0,
    scores: envelope.scores?.map(({ evidence: _evidence, ...score }) => score)
  });
  return JSON.parse(JSON.stringify(withoutRawEvidence));
}
function safeScores(scores, options) {
  if (!scores) {
    return void 0;
  }
  return options.includeRawContent ? scores : scores.map(({ evidence: _evidence, ...score }) => score);
}
function captureOptions(includeRawContent) {
  return includeRawContent ? { content: "full", redactionLevel: "none", redactedFields: [] } : void 0;
}
function rawContent(result) {
  return dropUndefined({
    input: result.input,
    output: result.output,
    trace_messages: result.trace.messages
  });
}
function buildEntry(result, options, indexRecord) {
  const includeRawContent = options.includeRawContent ?? false;
  const sourcePath = toPortablePath(options.sourceFile, options.cwd);
  const envelope = buildTraceEnvelopeFromEvaluationResult(result, {
    evalPath: sourcePath,
    runId: options.runId,
    source: { kind: "agentv_run", path: sourcePath, format: "agentv_result" },
    artifacts: {
      answer_path: result.output.length > 0 ? "outputs/answer.md" : void 0
    },
    duplicatePolicy: options.duplicatePolicy,
    capture: captureOptions(includeRawContent),
    now: () => stableDate(result.timestamp)
  });
  const projectionIdentity = envelope.projectionIdentity;
  if (!projectionIdentity) {
    throw new Error(`Result ${result.testId ?? "unknown"} is missing projection identity`);
  }
  const indexEntry = indexRecord ?? buildResultIndexArtifact(result, void 0, {
    projectionIdentity,
    duplicatePolicy: options.duplicatePolicy
  });
  const refs = artifactRefs(indexEntry, {
    includeRawContent,
    status: options.artifactRefStatus ?? "planned_export"
  });
  const safeEnvelopeWire = safeEnvelope(toTraceEnvelopeWire(envelope), { includeRawContent });
  const projectionIdentityWire = indexEntry.projection_identity ?? safeEnvelopeWire.projection_identity;
  if (!projectionIdentityWire) {
    throw new Error(`Result ${result.testId ?? "unknown"} is missing projection identity`);
  }
  const envelopeWire = {
    ...safeEnvelopeWire,
    projection_identity: projectionIdentityWire
  };
  const scores = safeScores(envelopeWire.scores, { includeRawContent });
  const feedback = dropUndefined({
    source: "agentv_grading_artifacts",
    result_score: result.score,
    execution_status: result.executionStatus,
    grading_path: refs.grading_path,
    metrics_path: refs.metrics_path,
    assertion_count: result.assertions?.length ?? 0,
    scores
  });
  return {
    projection_id: projectionIdentity.id,
    projection_identity: projectionIdentityWire,
    eval: envelopeWire.eval,
    artifact_refs: refs,
    trace: dropUndefined({
      format: envelopeWire.trace.format,
      trace_id: envelopeWire.trace.trace_id,
      root_span_id: envelopeWire.trace.root_span_id,
      span_count: envelopeWire.trace.spans.length
    }),
    trace_envelope: envelopeWire,
    feedback,
    capture: envelopeWire.capture,
    ...envelopeWire.conversion_warnings ? { conversion_warnings: envelopeWire.conversion_warnings } : {},
    ...includeRawContent ? { raw_content: rawContent(result) } : {}
  };
}
function buildProjectionBundle(results, options) {
  if (results.length === 0) {
    throw new Error(`No results found in ${options.sourceFile}`);
  }
  const entries2 = results.map(
    (result, index) => buildEntry(result, options, options.indexRecords?.[index])
  );
  const includeRawContent = options.includeRawContent ?? false;
  const artifactRefStatus = options.artifactRefStatus ?? "planned_export";
  const conversionWarnings = entries2.flatMap((entry) => entry.conversion_warnings ?? []);
  const bundleId = `projection-bundle-${shortHash([
    PROJECTION_BUNDLE_SCHEMA_VERSION,
    toPortablePath(options.sourceFile, options.cwd),
    options.runId,
    artifactRefStatus,
    includeRawContent ? "raw" : "metadata",
    ...entries2.map((entry) => entry.projection_id)
  ])}`;
  return {
    schema_version: PROJECTION_BUNDLE_SCHEMA_VERSION,
    bundle_id: bundleId,
    created_at: bundleCreatedAt(results),
    source: {
      kind: "agentv_run",
      path: toPortablePath(options.sourceFile, options.cwd),
      run_id: options.runId,
      result_count: results.length
    },
    content_policy: {
      raw_content: includeRawContent ? "included" : "excluded",
      raw_content_opt_in: includeRawContent,
      default_capture: includeRawContent ? "full" : "metadata",
      backend_anonymizer_boundary: "adapter"
    },
    capture_summary: entries2[0]?.capture ?? {
      content: includeRawContent ? "full" : "metadata",
      redaction_level: includeRawContent ? "none" : "partial"
    },
    entries: entries2,
    ...conversionWarnings.length > 0 ? { conversion_warnings: conversionWarnings } : {}
  };
}
function serializeProjectionBundle(bundle) {
  return `${JSON.stringify(bundle, null, 2)}
`;
}
async function writeProjectionBundle(bundle, outputDir) {
  const bundlePath = path21.join(outputDir, PROJECTION_BUNDLE_FILENAME);
  await mkdir11(outputDir, { recursive: true });
  await writeFile11(bundlePath, serializeProjectionBundle(bundle), "utf8");
  return bundlePath;
}

// src/commands/results/shared.ts
import { existsSync as existsSync10 } from "node:fs";
var sourceArg = positional({
  type: optional(string),
  displayName: "source",
  description: "Run workspace directory or run manifest (defaults to most recent in .agentv/results/)"
});
async function resolveSourceFile(source, cwd) {
  let sourceFile;
  if (source) {
    sourceFile = resolveResultSourcePath(source, cwd);
    if (!existsSync10(sourceFile)) {
      console.error(`Error: File not found: ${sourceFile}`);
      process.exit(1);
    }
    sourceFile = resolveRunManifestPath(sourceFile);
  } else {
    const cache = await loadRunCache(cwd);
    const cachedFile = cache ? resolveRunCacheFile(cache) : "";
    if (cachedFile && existsSync10(cachedFile)) {
      sourceFile = cachedFile;
    } else {
      const metas = listResultFiles(cwd, 1);
      if (metas.length === 0) {
        console.error("Error: No run workspaces found in .agentv/results/");
        console.error("Run an evaluation first: agentv eval <eval-file>");
        process.exit(1);
      }
      sourceFile = metas[0].path;
    }
  }
  return { sourceFile };
}
async function loadResults(source, cwd) {
  const { sourceFile } = await resolveSourceFile(source, cwd);
  const results = loadManifestResults(sourceFile);
  if (results.length === 0) {
    console.error(`No results found in ${sourceFile}`);
    process.exit(1);
  }
  return { results, sourceFile };
}

// src/commands/results/export.ts
function deriveOutputDir(cwd, sourceFile) {
  if (!isRunManifestPath(sourceFile)) {
    throw new Error(`Expected a run manifest named ${RESULT_INDEX_FILENAME2}: ${sourceFile}`);
  }
  const runDir = runRootFromIndexPath(sourceFile);
  const segments = path22.normalize(runDir).split(path22.sep).filter(Boolean);
  const resultsIndex = segments.lastIndexOf("results");
  if (resultsIndex >= 0 && resultsIndex < segments.length - 2) {
    const runSegments = segments.slice(resultsIndex + 1);
    if (!isReservedResultsNamespace(runSegments[0])) {
      return path22.join(cwd, ".agentv", "results", "export", ...runSegments);
    }
  }
  const parentDir = path22.basename(runDir);
  if (parentDir.startsWith("eval_")) {
    return path22.join(cwd, ".agentv", "results", "export", parentDir.slice(5));
  }
  return path22.join(cwd, ".agentv", "results", "export", parentDir);
}
function deriveExportRunId(sourceFile) {
  if (isRunManifestPath(sourceFile)) {
    return path22.basename(runRootFromIndexPath(sourceFile));
  }
  return path22.basename(sourceFile, path22.extname(sourceFile));
}
function runRootFromIndexPath(sourceFile) {
  const indexDir = path22.dirname(sourceFile);
  if (path22.basename(indexDir) === RUN_INTERNAL_DIRNAME) {
    return path22.dirname(indexDir);
  }
  return indexDir;
}
async function loadExportSource(source, cwd) {
  const { sourceFile } = await resolveSourceFile(source, cwd);
  const { results } = await loadResults(source, cwd);
  const indexRecords = isRunManifestPath(sourceFile) ? readIndexArtifactEntries(sourceFile) : void 0;
  return { sourceFile, results, indexRecords };
}
function parseIndexArtifactEntries(content) {
  return content.split(/\r?\n/).map((line) => line.trim()).filter(Boolean).map((line) => JSON.parse(line));
}
function readIndexArtifactEntries(indexPath) {
  return parseIndexArtifactEntries(readFileSync9(indexPath, "utf8"));
}
function buildSourceRecordMap(results, sourceRecords) {
  return new Map(
    results.flatMap((result, index) => {
      const sourceRecord = sourceRecords[index];
      return sourceRecord ? [[result, sourceRecord]] : [];
    })
  );
}
function isSafeRelativePath(relativePath) {
  return typeof relativePath === "string" && relativePath.trim().length > 0 && !path22.isAbsolute(relativePath) && !relativePath.split(/[\\/]+/).includes("..");
}
function toRelativeArtifactPath(outputDir, filePath) {
  return path22.relative(outputDir, filePath).split(path22.sep).join("/");
}
function hasCopiedSubdir(testBundleDir, dirname4) {
  return existsSync11(path22.join(testBundleDir, dirname4));
}
function createExportBundleArtifactsWriter(options) {
  if (options.sourceRecordsByResult.size === 0) {
    return void 0;
  }
  return async ({ result, testDir }) => {
    const sourceRecord = options.sourceRecordsByResult.get(result);
    const sourceBundleDir = sourceRecord?.test_dir ?? sourceRecord?.task_dir;
    if (!isSafeRelativePath(sourceBundleDir)) {
      return void 0;
    }
    const sourceBundlePath = path22.join(options.sourceBaseDir, sourceBundleDir);
    const testBundlePath = path22.join(testDir, "test");
    if (existsSync11(sourceBundlePath)) {
      cpSync2(sourceBundlePath, testBundlePath, { recursive: true, force: true });
    }
    return {
      test_dir: toRelativeArtifactPath(options.outputDir, testBundlePath),
      eval_path: toRelativeArtifactPath(options.outputDir, path22.join(testBundlePath, "EVAL.yaml")),
      targets_path: toRelativeArtifactPath(
        options.outputDir,
        path22.join(testBundlePath, "targets.yaml")
      ),
      ...sourceRecord?.files_path || hasCopiedSubdir(testBundlePath, "files") ? {
        files_path: toRelativeArtifactPath(
          options.outputDir,
          path22.join(testBundlePath, "files")
        )
      } : {},
      ...sourceRecord?.graders_path || hasCopiedSubdir(testBundlePath, "graders") ? {
        graders_path: toRelativeArtifactPath(
          options.outputDir,
          path22.join(testBundlePath, "graders")
        )
      } : {}
    };
  };
}
function buildProjectionBundleFromExportedIndex(options) {
  const indexPath = path22.join(options.outputDir, RUN_INTERNAL_DIRNAME, RESULT_INDEX_FILENAME2);
  const indexRecords = readIndexArtifactEntries(indexPath);
  const emittedResults = loadManifestResults(indexPath);
  return buildProjectionBundle(emittedResults, {
    sourceFile: options.sourceFile,
    runId: deriveExportRunId(options.sourceFile),
    cwd: options.cwd,
    duplicatePolicy: options.duplicatePolicy,
    includeRawContent: options.includeRawContent,
    artifactRefStatus: "emitted",
    indexRecords
  });
}
var resultsExportCommand = command({
  name: "export",
  description: "Export a run workspace or run manifest into a per-test directory structure",
  args: {
    source: positional({
      type: optional(string),
      displayName: "source",
      description: "Run workspace directory or run manifest to export (defaults to most recent in .agentv/results/)"
    }),
    out: option({
      type: optional(string),
      long: "out",
      short: "o",
      description: "Output directory (defaults to .agentv/results/export/<run-timestamp>/)"
    }),
    dir: option({
      type: optional(string),
      long: "dir",
      short: "d",
      description: "Working directory (default: current directory)"
    }),
    duplicatePolicy: option({
      type: optional(oneOf(["skip", "update", "error"])),
      long: "duplicate-policy",
      description: "How to handle duplicate projection identities in the output: update (default), skip, or error"
    }),
    projectionBundle: flag({
      long: "projection-bundle",
      description: "Write a local vendor-neutral projection_bundle.json for non-Phoenix adapters; no service calls"
    }),
    dryRun: flag({
      long: "dry-run",
      description: "Print deterministic projection bundle JSON without writing export artifacts"
    }),
    includeRawContent: flag({
      long: "include-raw-content",
      description: "Include raw prompt, output, and tool payload content in the projection bundle (off by default)"
    })
  },
  handler: async ({
    source,
    out,
    dir,
    duplicatePolicy,
    projectionBundle,
    dryRun: dryRun2,
    includeRawContent
  }) => {
    const cwd = dir ?? process.cwd();
    const policy = duplicatePolicy ?? "update";
    const shouldWriteProjectionBundle = projectionBundle;
    const shouldDryRun = dryRun2;
    const shouldIncludeRawContent = includeRawContent;
    try {
      const { sourceFile, results, indexRecords } = await loadExportSource(source, cwd);
      const outputDir = out ? path22.isAbsolute(out) ? out : path22.resolve(cwd, out) : deriveOutputDir(cwd, sourceFile);
      const buildBundle = () => buildProjectionBundle(results, {
        sourceFile,
        runId: deriveExportRunId(sourceFile),
        cwd,
        duplicatePolicy: policy,
        includeRawContent: shouldIncludeRawContent,
        indexRecords
      });
      if (shouldDryRun) {
        process.stdout.write(serializeProjectionBundle(buildBundle()));
        return;
      }
      await writeArtifactsFromResults2(results, outputDir, {
        evalFile: sourceFile,
        runId: deriveExportRunId(sourceFile),
        duplicatePolicy: policy,
        additionalArtifacts: createExportBundleArtifactsWriter({
          outputDir,
          sourceBaseDir: runRootFromIndexPath(sourceFile),
          sourceRecordsByResult: buildSourceRecordMap(results, indexRecords ?? [])
        })
      });
      const bundlePath = shouldWriteProjectionBundle ? await writeProjectionBundle(
        buildProjectionBundleFromExportedIndex({
          sourceFile,
          outputDir,
          cwd,
          duplicatePolicy: policy,
          includeRawContent: shouldIncludeRawContent
        }),
        outputDir
      ) : void 0;
      console.log(`Exported ${results.length} test(s) to ${outputDir}`);
      if (bundlePath) {
        console.log(`Projection bundle written to ${bundlePath}`);
      }
      for (const result of results) {
        console.log(`  ${result.testId ?? "unknown"}`);
      }
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
  }
});

// src/commands/results/failures.ts
function formatFailures(results) {
  return results.filter((r) => r.score < 1).map((r) => {
    let assertions = (r.assertions ?? []).map((a) => ({
      text: a.text,
      passed: a.passed,
      evidence: a.evidence
    }));
    if (assertions.length === 0 && r.scores) {
      assertions = r.scores.flatMap(
        (s) => (s.assertions ?? []).map((a) => ({
          text: a.text,
          passed: a.passed,
          evidence: a.evidence
        }))
      );
    }
    return { test_id: r.testId, score: r.score, assertions };
  });
}
var resultsFailuresCommand = command({
  name: "failures",
  description: "Show only failed tests with assertion evidence",
  args: {
    source: sourceArg,
    dir: option({
      type: optional(string),
      long: "dir",
      short: "d",
      description: "Working directory (default: current directory)"
    })
  },
  handler: async ({ source, dir }) => {
    const cwd = dir ?? process.cwd();
    try {
      const { results } = await loadResults(source, cwd);
      console.log(JSON.stringify(formatFailures(results), null, 2));
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
  }
});

// src/commands/results/report.ts
import { existsSync as existsSync12, mkdirSync as mkdirSync3, readFileSync as readFileSync10, writeFileSync as writeFileSync4 } from "node:fs";
import path23 from "node:path";

// src/commands/results/report-template.ts
var RESULTS_REPORT_TEMPLATE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>AgentV Evaluation Report</title>
  <style>
    * { box-sizing: border-box; }
    html, body { margin: 0; padding: 0; }
    :root {
      color-scheme: dark;
      --canvas: #030712;
      --surface: #111827;
      --surface-muted: rgba(17, 24, 39, 0.5);
      --surface-hover: rgba(17, 24, 39, 0.3);
      --border: #1f2937;
      --text: #d1d5db;
      --text-muted: #9ca3af;
      --text-subtle: #6b7280;
      --heading: #ffffff;
      --brand-middle: #d1d5db;
      --accent: #22d3ee;
      --accent-weak: rgba(8, 145, 178, 0.2);
      --pass: #34d399;
      --warn: #facc15;
      --fail: #f87171;
      --track: #1f2937;
      --pill-gradient: linear-gradient(90deg, #60a5fa 0%, #2563eb 100%);
      --font: ui-sans-serif, system-ui, -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
      --radius-md: 6px;
      --radius-lg: 8px;
    }

    :root.light {
      color-scheme: light;
      --canvas: #f8fafc;
      --surface: #ffffff;
      --surface-muted: rgba(241, 245, 249, 0.8);
      --surface-hover: rgba(241, 245, 249, 0.5);
      --border: #e2e8f0;
      --text: #1e293b;
      --text-muted: #64748b;
      --text-subtle: #94a3b8;
      --heading: #0f172a;
      --brand-middle: #64748b;
      --accent: #0891b2;
      --accent-weak: rgba(8, 145, 178, 0.1);
      --pass: #16a34a;
      --warn: #ca8a04;
      --fail: #dc2626;
      --track: #e2e8f0;
      --pill-gradient: linear-gradient(90deg, #3b82f6 0%, #2563eb 100%);
    }

    :root.light .chip {
      border-color: rgba(8, 145, 178, 0.3);
      background: rgba(8, 145, 178, 0.08);
      color: #0891b2;
    }

    :root.light .assertion-badge {
      border-color: rgba(8, 145, 178, 0.3);
      background: rgba(8, 145, 178, 0.08);
      color: #0891b2;
    }

    :root.light .pass-rate-label {
      color: #ffffff;
    }

    :root.light .group-header {
      background: rgba(241, 245, 249, 0.8);
    }

    :root.light .status-pill {
      background: rgba(241, 245, 249, 0.8);
    }

    :root.light .assertion-item {
      background: rgba(241, 245, 249, 0.5);
      border-color: var(--border);
    }

    :root.light .detail-row td {
      background: rgba(248, 250, 252, 0.8);
    }

    body {
      background: var(--canvas);
      color: var(--text);
      font-family: var(--font);
      font-size: 14px;
      line-height: 1.5;
    }

    button, input, select {
      font: inherit;
    }

    .tabular,
    .num,
    .pass-rate-label,
    .metric-value,
    .count-label,
    .table-num {
      font-variant-numeric: tabular-nums;
    }

    .shell {
      min-height: 100vh;
    }

    .header {
      border-bottom: 1px solid var(--border);
      background: var(--surface);
      padding: 16px 24px;
      display: flex;
      align-items: center;
      justify-content: space-between;
      gap: 16px;
    }

    .header-title-wrap {
      display: flex;
      flex-direction: column;
      gap: 4px;
    }

    .eyebrow {
      color: var(--text-muted);
      font-size: 12px;
      letter-spacing: 0.08em;
      text-transform: uppercase;
    }

    .header-title {
      color: var(--heading);
      font-size: 24px;
      font-weight: 600;
      margin: 0;
    }

    .brand-wordmark {
      white-space: nowrap;
    }

    .brand-letter {
      color: var(--accent);
    }

    .brand-middle {
      color: var(--brand-middle);
    }

    .header-subtitle {
      color: var(--text-muted);
      margin: 0;
    }

    .header-meta {
      display: flex;
      flex-wrap: wrap;
      justify-content: flex-end;
      align-items: center;
      gap: 8px;
    }

    .chip {
      border: 1px solid rgba(8, 145, 178, 0.45);
      background: rgba(8, 145, 178, 0.16);
      color: #67e8f9;
      border-radius: var(--radius-md);
      padding: 4px 8px;
      font-size: 12px;
      font-weight: 500;
    }

    .tabs {
      display: flex;
      gap: 4px;
      padding: 0 24px;
      border-bottom: 1px solid var(--border);
      background: var(--canvas);
    }

    .tab {
      background: transparent;
      border: none;
      border-bottom: 2px solid transparent;
      color: var(--text-muted);
      cursor: pointer;
      padding: 12px 8px 10px;
      transition: color 120ms ease, border-color 120ms ease;
    }

    .tab:hover {
      color: var(--text);
    }

    .tab.active {
      color: var(--accent);
      border-bottom-color: var(--accent);
    }

    .app {
      padding: 24px;
      display: flex;
      flex-direction: column;
      gap: 24px;
    }

    .empty-state {
      border: 1px solid var(--border);
      border-radius: var(--radius-lg);
      background: var(--surface);
      padding: 32px;
      text-align: center;
    }

    .empty-state h2 {
      margin: 0 0 8px;
      color: var(--heading);
      font-size: 18px;
      font-weight: 500;
    }

    .empty-state p {
      margin: 0;
      color: var(--text-muted);
    }

    .stats-grid {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(160px, 1fr));
      gap: 12px;
    }

    .stat-card {
      border: 1px solid var(--border);
      border-radius: var(--radius-lg);
      background: var(--surface);
      padding: 16px;
      display: flex;
      flex-direction: column;
      gap: 6px;
      min-height: 96px;
    }

    .stat-label {
      color: var(--text-muted);
      font-size: 12px;
      letter-spacing: 0.04em;
      text-transform: uppercase;
    }

    .stat-value {
      color: var(--heading);
      font-size: 28px;
      font-weight: 600;
      line-height: 1.1;
    }

    .tone-pass .stat-value,
    .text-pass { color: var(--pass); }
    .tone-warn .stat-value,
    .text-warn { color: var(--warn); }
    .tone-fail .stat-value,
    .text-fail { color: var(--fail); }

    .section {
      display: flex;
      flex-direction: column;
      gap: 12px;
    }

    .section-heading {
      display: flex;
      align-items: baseline;
      justify-content: space-between;
      gap: 12px;
      flex-wrap: wrap;
    }

    .section-heading h2 {
      margin: 0;
      color: var(--heading);
      font-size: 20px;
      font-weight: 600;
    }

    .section-heading p {
      margin: 0;
      color: var(--text-muted);
    }

    .table-wrap {
      overflow-x: auto;
      border: 1px solid var(--border);
      border-radius: var(--radius-lg);
      background: var(--surface);
    }

    table {
      width: 100%;
      border-collapse: collapse;
      font-size: 14px;
    }

    thead {
      border-bottom: 1px solid var(--border);
      background: var(--surface-muted);
    }

    th {
      padding: 12px 16px;
      text-align: left;
      font-weight: 500;
      color: var(--text-muted);
      white-space: nowrap;
    }

    td {
      padding: 12px 16px;
      border-top: 1px solid rgba(31, 41, 55, 0.5);
      vertical-align: top;
    }

    tbody tr {
      transition: background-color 120ms ease;
    }

    tbody tr:hover {
      background: var(--surface-hover);
    }

    .sortable {
      cursor: pointer;
      user-select: none;
    }

    .sortable:hover {
      color: var(--text);
    }

    .table-num {
      text-align: right;
      color: var(--text);
      white-space: nowrap;
    }

    .table-muted {
      color: var(--text-muted);
    }

    .id-cell {
      font-weight: 500;
      color: var(--heading);
    }

    .status-pill {
      display: inline-flex;
      align-items: center;
      gap: 6px;
      padding: 2px 8px;
      border-radius: 999px;
      border: 1px solid var(--border);
      background: rgba(17, 24, 39, 0.6);
      color: var(--text);
      font-size: 12px;
      white-space: nowrap;
    }

    .status-dot {
      width: 8px;
      height: 8px;
      border-radius: 999px;
      background: var(--text-subtle);
    }

    .status-pass .status-dot { background: var(--pass); }
    .status-fail .status-dot { background: var(--fail); }
    .status-error .status-dot { background: var(--warn); }

    .pass-rate-track {
      width: 80px;
      height: 20px;
      overflow: hidden;
      border-radius: 999px;
      background: var(--track);
      position: relative;
      border: 1px solid rgba(31, 41, 55, 0.8);
    }

    .pass-rate-fill {
      position: absolute;
      inset: 0 auto 0 0;
      background: var(--pill-gradient);
      border-radius: 999px;
    }

    .pass-rate-label {
      position: absolute;
      inset: 0;
      display: flex;
      align-items: center;
      justify-content: center;
      font-size: 12px;
      font-weight: 600;
      color: #ffffff;
      white-space: nowrap;
      z-index: 1;
    }

    .histogram {
      border: 1px solid var(--border);
      border-radius: var(--radius-lg);
      background: var(--surface);
      padding: 16px;
      display: flex;
      flex-direction: column;
      gap: 10px;
    }

    .hist-row {
      display: grid;
      grid-template-columns: 72px 1fr 40px;
      gap: 12px;
      align-items: center;
    }

    .hist-label,
    .hist-count {
      color: var(--text-muted);
      font-size: 12px;
    }

    .hist-bar-track {
      height: 16px;
      border-radius: 999px;
      background: var(--track);
      overflow: hidden;
    }

    .hist-bar-fill {
      height: 100%;
      border-radius: 999px;
      background: var(--pill-gradient);
    }

    .filter-bar {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
      align-items: center;
    }

    .filter-input,
    .filter-select {
      border: 1px solid #374151;
      border-radius: var(--radius-md);
      background: var(--canvas);
      color: var(--text);
      padding: 8px 10px;
    }

    .filter-input::placeholder {
      color: var(--text-subtle);
    }

    .filter-input:focus,
    .filter-select:focus {
      outline: none;
      border-color: var(--accent);
      box-shadow: 0 0 0 1px var(--accent);
    }

    .filter-input {
      min-width: 260px;
      flex: 1 1 260px;
    }

    .filter-count {
      margin-left: auto;
      color: var(--text-muted);
      font-size: 12px;
    }

    .group-list {
      display: flex;
      flex-direction: column;
      gap: 16px;
    }

    .group-card {
      border: 1px solid var(--border);
      border-radius: var(--radius-lg);
      overflow: hidden;
      background: var(--surface);
    }

    .group-header {
      padding: 16px;
      border-bottom: 1px solid var(--border);
      display: flex;
      justify-content: space-between;
      align-items: center;
      gap: 12px;
      flex-wrap: wrap;
      background: rgba(17, 24, 39, 0.65);
    }

    .group-title-wrap {
      display: flex;
      flex-direction: column;
      gap: 4px;
    }

    .group-title {
      margin: 0;
      color: var(--heading);
      font-size: 18px;
      font-weight: 600;
    }

    .group-subtitle {
      margin: 0;
      color: var(--text-muted);
      font-size: 13px;
    }

    .group-metrics {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 10px 14px;
    }

    .metric {
      display: flex;
      flex-direction: column;
      gap: 2px;
    }

    .metric-label {
      color: var(--text-muted);
      font-size: 12px;
    }

    .metric-value {
      color: var(--heading);
      font-weight: 500;
    }

    .test-row {
      cursor: pointer;
    }

    .expand-cell {
      width: 40px;
      color: var(--text-muted);
      text-align: center;
    }

    .detail-row td {
      padding: 0;
      background: rgba(3, 7, 18, 0.5);
    }

    .detail-panel {
      padding: 16px;
      display: flex;
      flex-direction: column;
      gap: 16px;
    }

    .detail-grid {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(280px, 1fr));
      gap: 16px;
    }

    .detail-card,
    .assertion-card,
    .error-card {
      border: 1px solid var(--border);
      border-radius: var(--radius-lg);
      background: var(--surface);
      padding: 16px;
    }

    .detail-card h4,
    .assertion-card h4,
    .error-card h4 {
      margin: 0 0 10px;
      color: var(--heading);
      font-size: 14px;
      font-weight: 500;
    }

    pre {
      margin: 0;
      white-space: pre-wrap;
      word-break: break-word;
      font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
      font-size: 12px;
      color: var(--text);
      max-height: 320px;
      overflow: auto;
    }

    .evaluator-table-wrap {
      border: 1px solid var(--border);
      border-radius: var(--radius-lg);
      overflow-x: auto;
      background: var(--surface);
    }

    .evaluator-table-wrap th,
    .evaluator-table-wrap td {
      padding: 14px 20px;
    }

    .assertion-grid {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(280px, 1fr));
      gap: 16px;
    }

    .assertion-list {
      list-style: none;
      margin: 0;
      padding: 0;
      display: flex;
      flex-direction: column;
      gap: 10px;
    }

    .assertion-item {
      border: 1px solid rgba(31, 41, 55, 0.8);
      border-radius: var(--radius-md);
      background: rgba(3, 7, 18, 0.45);
      padding: 10px 12px;
      display: flex;
      flex-direction: column;
      gap: 8px;
    }

    .assertion-topline {
      display: flex;
      align-items: center;
      flex-wrap: wrap;
      gap: 8px;
    }

    .assertion-badge {
      border: 1px solid rgba(8, 145, 178, 0.45);
      background: rgba(8, 145, 178, 0.16);
      color: #67e8f9;
      border-radius: var(--radius-md);
      padding: 2px 8px;
      font-size: 12px;
      font-weight: 500;
      align-self: flex-start;
    }

    .assertion-status {
      font-size: 12px;
      font-weight: 500;
    }

    .assertion-text {
      color: var(--text);
    }

    .assertion-evidence {
      color: var(--text-muted);
      font-size: 12px;
      white-space: pre-wrap;
      word-break: break-word;
    }

    .meta-row {
      display: flex;
      flex-wrap: wrap;
      gap: 8px 16px;
      color: var(--text-muted);
      font-size: 12px;
      border-top: 1px solid var(--border);
      padding-top: 12px;
    }

    .error-card {
      border-color: rgba(248, 113, 113, 0.45);
      background: rgba(127, 29, 29, 0.18);
    }

    .error-card h4,
    .error-card pre {
      color: #fecaca;
    }

    .muted {
      color: var(--text-muted);
    }

    .hidden {
      display: none;
    }

    .theme-toggle {
      background: var(--surface);
      border: 1px solid var(--border);
      border-radius: var(--radius-md);
      color: var(--text-muted);
      cursor: pointer;
      padding: 6px 10px;
      font-size: 13px;
      transition: color 120ms ease, border-color 120ms ease;
      white-space: nowrap;
    }

    .theme-toggle:hover {
      color: var(--text);
      border-color: var(--text-muted);
    }

    .criteria-cell {
      color: var(--text-muted);
      font-size: 13px;
      max-width: 320px;
    }

    .io-toggle {
      cursor: pointer;
      user-select: none;
      color: var(--text-muted);
      font-size: 13px;
      border: 1px solid var(--border);
      border-radius: var(--radius-md);
      background: var(--surface);
      padding: 8px 12px;
      display: inline-flex;
      align-items: center;
      gap: 6px;
    }

    .io-toggle:hover {
      color: var(--text);
    }

    .io-toggle[open] > summary {
      margin-bottom: 12px;
    }

    .io-toggle > summary {
      list-style: none;
    }

    .io-toggle > summary::-webkit-details-marker {
      display: none;
    }

    @media (max-width: 900px) {
      .header,
      .group-header,
      .section-heading {
        align-items: flex-start;
      }

      .filter-count {
        width: 100%;
        margin-left: 0;
      }
    }

    @media (prefers-reduced-motion: reduce) {
      *, *::before, *::after {
        transition: none !important;
        scroll-behavior: auto !important;
      }
    }
  </style>
</head>
<body>
  <div class="shell">
    <header class="header">
      <div class="header-title-wrap">
        <div class="eyebrow"><span class="brand-wordmark" aria-label="AgentV"><span class="brand-letter" aria-hidden="true">A</span><span class="brand-middle" aria-hidden="true">gent</span><span class="brand-letter" aria-hidden="true">V</span></span> static export</div>
        <h1 class="header-title">Evaluation Report</h1>
        <p class="header-subtitle">Dashboard-themed HTML generated from an existing AgentV results workspace.</p>
      </div>
      <div class="header-meta" id="header-meta"></div>
    </header>

    <nav class="tabs" aria-label="Report sections" id="tab-nav">
      <button class="tab active" type="button" data-tab="overview">Overview</button>
      <button class="tab" type="button" data-tab="tests">Test Cases</button>
    </nav>

    <main class="app" id="app"></main>
  </div>

  <script>
    const RAW_DATA = __DATA_PLACEHOLDER__;

    (function () {
      function pick(obj, keys, fallback) {
        for (let i = 0; i < keys.length; i += 1) {
          const key = keys[i];
          if (obj && Object.prototype.hasOwnProperty.call(obj, key) && obj[key] !== undefined && obj[key] !== null) {
            return obj[key];
          }
        }
        return fallback;
      }

      function asString(value, fallback) {
        return typeof value === 'string' ? value : fallback;
      }

      function asNumber(value, fallback) {
        return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
      }

      function asArray(value) {
        return Array.isArray(value) ? value : [];
      }

      function normalizeAssertion(value, assertionType) {
        if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
        return {
          text: asString(value.text, 'Untitled assertion'),
          passed: Boolean(value.passed),
          evidence: asString(value.evidence, ''),
          assertion_type: asString(value.assertion_type, '') || assertionType,
        };
      }

      function normalizeScores(value) {
        return asArray(value)
          .map((entry) => {
            if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return null;
            const scoreName = asString(pick(entry, ['name', 'type'], 'assertion'), 'assertion');
            const scoreType = asString(pick(entry, ['type', 'name'], 'assertion'), 'assertion');
            const assertions = asArray(entry.assertions)
              .map((assertion) => normalizeAssertion(assertion, scoreName))
              .filter(Boolean);
            return {
              name: scoreName,
              type: scoreType,
              score: asNumber(entry.score, 0),
              assertions,
            };
          })
          .filter(Boolean);
      }

      function normalizeTokenUsage(value) {
        if (!value || typeof value !== 'object' || Array.isArray(value)) {
          return { input: 0, output: 0, reasoning: 0 };
        }
        return {
          input: asNumber(pick(value, ['input', 'input_tokens', 'inputTokens'], 0), 0),
          output: asNumber(pick(value, ['output', 'output_tokens', 'outputTokens'], 0), 0),
          reasoning: asNumber(pick(value, ['reasoning', 'reasoning_tokens', 'reasoningTokens'], 0), 0),
        };
      }

      function normalizeResult(raw, index) {
        const scores = normalizeScores(pick(raw, ['scores'], []));
        const fallbackAssertions = asArray(pick(raw, ['assertions'], []))
          .map((assertion) => normalizeAssertion(assertion, 'assertion'))
          .filter(Boolean);
        const flattenedAssertions = scores.flatMap((score) => score.assertions);
        const displayAssertions = flattenedAssertions.length > 0 ? flattenedAssertions : fallbackAssertions;
        const testId = asString(pick(raw, ['test_id', 'testId'], 'unknown'), 'unknown');
        const target = asString(pick(raw, ['target'], 'unknown'), 'unknown');
        const evalFile = asString(pick(raw, ['eval_file', 'evalFile'], 'ungrouped'), 'ungrouped');
        const executionStatus = asString(pick(raw, ['execution_status', 'executionStatus'], ''), '');
        return {
          _key: \`\${evalFile}:\${target}:\${testId}:\${index}\`,
          raw,
          eval_file: evalFile,
          test_id: testId,
          target,
          score: asNumber(pick(raw, ['score'], 0), 0),
          duration_ms: asNumber(pick(raw, ['duration_ms', 'durationMs'], 0), 0),
          cost_usd: asNumber(pick(raw, ['cost_usd', 'costUsd'], 0), 0),
          timestamp: asString(pick(raw, ['timestamp'], ''), ''),
          execution_status: executionStatus,
          error: asString(pick(raw, ['error'], ''), ''),
          input: pick(raw, ['input'], null),
          output: pick(raw, ['output'], null),
          token_usage: normalizeTokenUsage(pick(raw, ['token_usage', 'tokenUsage'], {})),
          total_tokens: 0,
          scores,
          assertions: displayAssertions,
        };
      }

      function escapeHtml(value) {
        return String(value)
          .replace(/&/g, '&amp;')
          .replace(/</g, '&lt;')
          .replace(/>/g, '&gt;')
          .replace(/"/g, '&quot;');
      }

      function statusOf(result) {
        if (result.execution_status === 'execution_error') return 'error';
        if (result.execution_status === 'quality_failure') return 'fail';
        if (result.execution_status === 'ok') return 'pass';
        if (result.error) return 'error';
        return result.score >= 0.5 ? 'pass' : 'fail';
      }

      function statusLabel(status) {
        if (status === 'pass') return 'Passed';
        if (status === 'fail') return 'Failed';
        return 'Error';
      }

      function toneForScore(value) {
        if (value >= 0.8) return 'text-pass';
        if (value >= 0.5) return 'text-warn';
        return 'text-fail';
      }

      function toneClassForRate(value) {
        if (value >= 0.8) return 'tone-pass';
        if (value >= 0.5) return 'tone-warn';
        return 'tone-fail';
      }

      function formatPercent(value) {
        return \`\${(value * 100).toFixed(1)}%\`;
      }

      function formatDuration(ms) {
        if (!ms) return '-';
        if (ms < 1000) return \`\${Math.round(ms)}ms\`;
        if (ms < 60000) return \`\${(ms / 1000).toFixed(1)}s\`;
        const minutes = Math.floor(ms / 60000);
        const seconds = Math.round((ms % 60000) / 1000);
        return \`\${minutes}m \${seconds}s\`;
      }

      function formatTokens(value) {
        if (!value) return '-';
        if (value >= 1000000) return \`\${(value / 1000000).toFixed(1)}M\`;
        if (value >= 1000) return \`\${(value / 1000).toFixed(1)}K\`;
        return String(value);
      }

      function formatCost(value) {
        if (!value) return '-';
        if (value < 0.01) return '<$0.01';
        return \`$\${value.toFixed(2)}\`;
      }

      function totalTokens(result) {
        return (result.token_usage.input || 0) + (result.token_usage.output || 0) + (result.token_usage.reasoning || 0);
      }

      function computeStats(rows) {
        const stats = {
          total: rows.length,
          passed: 0,
          failed: 0,
          errors: 0,
          total_duration_ms: 0,
          total_tokens: 0,
          total_cost_usd: 0,
          scores: [],
        };
        rows.forEach((row) => {
          const status = statusOf(row);
          if (status === 'pass') stats.passed += 1;
          else if (status === 'fail') stats.failed += 1;
          else stats.errors += 1;
          stats.total_duration_ms += row.duration_ms || 0;
          stats.total_tokens += totalTokens(row);
          stats.total_cost_usd += row.cost_usd || 0;
          if (status !== 'error') stats.scores.push(row.score);
        });
        const graded = stats.passed + stats.failed;
        stats.pass_rate = graded > 0 ? stats.passed / graded : 0;
        return stats;
      }

      function groupBy(rows, key) {
        const map = new Map();
        rows.forEach((row) => {
          const value = row[key];
          if (!map.has(value)) map.set(value, []);
          map.get(value).push(row);
        });
        return Array.from(map.entries()).map(([name, entries]) => ({
          name,
          rows: entries,
          stats: computeStats(entries),
        }));
      }

      function uniqueScoreNames(rows) {
        const seen = new Set();
        rows.forEach((row) => {
          row.scores.forEach((score) => seen.add(score.name));
        });
        return Array.from(seen.values()).sort();
      }

      function scoreForName(row, scoreName) {
        const match = row.scores.find((score) => score.name === scoreName);
        return match ? match.score : null;
      }

      function sortRows(rows, sort) {
        const direction = sort.dir === 'asc' ? 1 : -1;
        const statusRank = { pass: 0, fail: 1, error: 2 };
        return rows.slice().sort((left, right) => {
          let a;
          let b;
          if (sort.col === 'status') {
            a = statusRank[statusOf(left)];
            b = statusRank[statusOf(right)];
          } else if (sort.col.startsWith('score:')) {
            const scoreName = sort.col.slice('score:'.length);
            a = scoreForName(left, scoreName);
            b = scoreForName(right, scoreName);
          } else {
            a = left[sort.col];
            b = right[sort.col];
          }
          if (a == null && b == null) return 0;
          if (a == null) return 1;
          if (b == null) return -1;
          if (typeof a === 'string' || typeof b === 'string') {
            return String(a).localeCompare(String(b)) * direction;
          }
          return (a - b) * direction;
        });
      }

      function matchesSearch(row, search) {
        if (!search) return true;
        const haystack = [
          row.test_id,
          row.target,
          row.eval_file,
          row.error,
          extractCriteria(row),
          row.assertions.map((assertion) => \`\${assertion.assertion_type} \${assertion.text} \${assertion.evidence}\`).join(' '),
        ].join(' ').toLowerCase();
        return haystack.includes(search.toLowerCase());
      }

      function filterRows(rows, filter) {
        return rows.filter((row) => {
          const status = statusOf(row);
          if (filter.status !== 'all' && status !== filter.status) return false;
          if (filter.target !== 'all' && row.target !== filter.target) return false;
          if (!matchesSearch(row, filter.search)) return false;
          return true;
        });
      }

      function renderPassRate(rate) {
        return \`
          <span class="pass-rate-track">
            <span class="pass-rate-fill" style="width:\${Math.max(0, Math.min(100, rate * 100))}%"></span>
            <span class="pass-rate-label">\${formatPercent(rate)}</span>
          </span>
        \`;
      }

      function formatJson(value) {
        if (value == null) return '';
        if (typeof value === 'string') return value;
        try {
          return JSON.stringify(value, null, 2);
        } catch (error) {
          return String(value);
        }
      }

      function renderStatusPill(status) {
        return \`
          <span class="status-pill status-\${status}">
            <span class="status-dot"></span>
            <span>\${statusLabel(status)}</span>
          </span>
        \`;
      }

      function renderAssertions(assertions) {
        if (assertions.length === 0) {
          return '<p class="muted">No assertions.</p>';
        }
        return \`
          <ul class="assertion-list">
            \${assertions.map((assertion) => \`
              <li class="assertion-item">
                <div class="assertion-topline">
                  <span class="assertion-status \${assertion.passed ? 'text-pass' : 'text-fail'}">\${assertion.passed ? '\\u2713' : '\\u2717'}</span>
                  \${assertion.assertion_type ? \`<span class="assertion-badge">\${escapeHtml(assertion.assertion_type)}</span>\` : ''}
                  <span class="assertion-text">\${escapeHtml(assertion.text)}</span>
                </div>
                \${assertion.evidence ? \`<div class="assertion-evidence">\${escapeHtml(assertion.evidence)}</div>\` : ''}
              </li>
            \`).join('')}
          </ul>
        \`;
      }

      function extractCriteria(row) {
        if (row.input && typeof row.input === 'object' && row.input.prompt) {
          return String(row.input.prompt);
        }
        if (typeof row.input === 'string' && row.input.length > 0 && row.input.length <= 200) {
          return row.input;
        }
        if (row.assertions && row.assertions.length > 0) {
          const types = Array.from(new Set(row.assertions.map(a => a.assertion_type).filter(Boolean)));
          const firstText = row.assertions[0].text || '';
          const prefix = types.length > 0 ? types.join(', ') + ': ' : '';
          const full = prefix + firstText;
          return full.length > 120 ? full.slice(0, 117) + '...' : full;
        }
        return '';
      }

      function renderDetail(row, evaluatorNames, hasAnyCost) {
        const meta = [];
        if (row.timestamp) meta.push(escapeHtml(row.timestamp));
        if (row.target) meta.push(escapeHtml(row.target));
        if (row.duration_ms) meta.push(escapeHtml(formatDuration(row.duration_ms)));
        if (totalTokens(row)) meta.push(escapeHtml(\`\${formatTokens(totalTokens(row))} tokens\`));
        if (hasAnyCost && row.cost_usd) meta.push(escapeHtml(formatCost(row.cost_usd)));

        const hasIo = row.input != null || row.output != null;

        return \`
          <div class="detail-panel">
            <div class="assertion-card">
              <h4>Assertions (\${row.assertions.length})</h4>
              \${renderAssertions(row.assertions)}
            </div>

            \${row.error ? \`
              <div class="error-card">
                <h4>Error</h4>
                <pre>\${escapeHtml(row.error)}</pre>
              </div>
            \` : ''}

            \${hasIo ? \`
              <details class="io-toggle">
                <summary>\\u25B8 Input / Output</summary>
                <div class="detail-grid">
                  <div class="detail-card">
                    <h4>Input</h4>
                    <pre>\${escapeHtml(formatJson(row.input))}</pre>
                  </div>
                  <div class="detail-card">
                    <h4>Output</h4>
                    <pre>\${escapeHtml(formatJson(row.output))}</pre>
                  </div>
                </div>
              </details>
            \` : ''}

            <div class="meta-row">\${meta.join('<span>&middot;</span>')}</div>
          </div>
        \`;
      }

      const DATA = asArray(RAW_DATA).map(normalizeResult);
      DATA.forEach((row) => {
        row.total_tokens = totalTokens(row);
      });
      const STATE = {
        tab: 'overview',
        filter: { status: 'all', target: 'all', search: '' },
        sort: { col: 'test_id', dir: 'asc' },
        expanded: {},
      };

      const APP = document.getElementById('app');
      const HEADER_META = document.getElementById('header-meta');
      const TAB_BUTTONS = Array.from(document.querySelectorAll('.tab'));
      const TARGETS = Array.from(new Set(DATA.map((row) => row.target))).sort();
      const EVALUATOR_NAMES = uniqueScoreNames(DATA);
      const HAS_ANY_COST = DATA.some((row) => row.cost_usd > 0);
      const OVERALL_STATS = computeStats(DATA);
      const EVAL_GROUPS = groupBy(DATA, 'eval_file').sort((a, b) => a.name.localeCompare(b.name));
      const TARGET_GROUPS = groupBy(DATA, 'target').sort((a, b) => a.name.localeCompare(b.name));

      function syncHeaderMeta() {
        const themeLabel = document.documentElement.classList.contains('light') ? '\\u263E Dark' : '\\u2600 Light';
        HEADER_META.innerHTML = \`
          <span class="chip">\${escapeHtml(String(DATA.length))} tests</span>
          <span class="chip">\${escapeHtml(String(EVAL_GROUPS.length))} eval files</span>
          <span class="chip">\${escapeHtml(String(TARGETS.length))} targets</span>
          <button class="theme-toggle" id="theme-btn" type="button">\${themeLabel}</button>
        \`;
        document.getElementById('theme-btn').addEventListener('click', toggleTheme);
      }

      function toggleTheme() {
        document.documentElement.classList.toggle('light');
        syncHeaderMeta();
      }

      function setTab(tab) {
        STATE.tab = tab;
        TAB_BUTTONS.forEach((button) => {
          button.classList.toggle('active', button.getAttribute('data-tab') === tab);
        });
        render();
      }

      TAB_BUTTONS.forEach((button) => {
        button.addEventListener('click', () => setTab(button.getAttribute('data-tab')));
      });

      function renderStatCard(label, value, tone) {
        return \`
          <div class="stat-card \${tone || ''}">
            <div class="stat-label">\${escapeHtml(label)}</div>
            <div class="stat-value">\${escapeHtml(value)}</div>
          </div>
        \`;
      }

      function renderOverview() {
        if (DATA.length === 0) {
          APP.innerHTML = \`
            <div class="empty-state">
              <h2>No results loaded</h2>
              <p>Add one or more parsed JSONL result rows to the template placeholder.</p>
            </div>
          \`;
          return;
        }

        const overviewSections = [];
        overviewSections.push(\`
          <section class="section">
            <div class="stats-grid">
              \${renderStatCard('Total tests', String(OVERALL_STATS.total))}
              \${renderStatCard('Eval files', String(EVAL_GROUPS.length))}
              \${renderStatCard('Targets', String(TARGETS.length))}
              \${renderStatCard('Passed', String(OVERALL_STATS.passed), 'tone-pass')}
              \${renderStatCard('Failed', String(OVERALL_STATS.failed), 'tone-fail')}
              \${renderStatCard('Errors', String(OVERALL_STATS.errors), OVERALL_STATS.errors > 0 ? 'tone-warn' : '')}
              \${renderStatCard('Pass rate', formatPercent(OVERALL_STATS.pass_rate), toneClassForRate(OVERALL_STATS.pass_rate))}
              \${renderStatCard('Duration', formatDuration(OVERALL_STATS.total_duration_ms))}
              \${renderStatCard('Tokens', formatTokens(OVERALL_STATS.total_tokens))}
              \${HAS_ANY_COST ? renderStatCard('Cost', formatCost(OVERALL_STATS.total_cost_usd)) : ''}
            </div>
          </section>
        \`);

        overviewSections.push(\`
          <section class="section">
            <div class="section-heading">
              <div>
                <h2>Eval Files</h2>
                <p>Grouped exactly as the exported template will render them in the Test Cases tab.</p>
              </div>
            </div>
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th>Eval file</th>
                    <th>Pass rate</th>
                    <th class="table-num">Passed</th>
                    <th class="table-num">Failed</th>
                    <th class="table-num">Errors</th>
                    <th class="table-num">Tests</th>
                    <th class="table-num">Duration</th>
                    <th class="table-num">Tokens</th>
                    \${HAS_ANY_COST ? '<th class="table-num">Cost</th>' : ''}
                  </tr>
                </thead>
                <tbody>
                  \${EVAL_GROUPS.map((group) => \`
                    <tr>
                      <td class="id-cell">\${escapeHtml(group.name)}</td>
                      <td>\${renderPassRate(group.stats.pass_rate)}</td>
                      <td class="table-num text-pass">\${escapeHtml(String(group.stats.passed))}</td>
                      <td class="table-num text-fail">\${escapeHtml(String(group.stats.failed))}</td>
                      <td class="table-num text-warn">\${escapeHtml(String(group.stats.errors))}</td>
                      <td class="table-num">\${escapeHtml(String(group.stats.total))}</td>
                      <td class="table-num">\${escapeHtml(formatDuration(group.stats.total_duration_ms))}</td>
                      <td class="table-num">\${escapeHtml(formatTokens(group.stats.total_tokens))}</td>
                      \${HAS_ANY_COST ? \`<td class="table-num">\${escapeHtml(formatCost(group.stats.total_cost_usd))}</td>\` : ''}
                    </tr>
                  \`).join('')}
                </tbody>
              </table>
            </div>
          </section>
        \`);

        if (TARGET_GROUPS.length > 1) {
          overviewSections.push(\`
            <section class="section">
              <div class="section-heading">
                <div>
                  <h2>Targets</h2>
                  <p>Cross-target summary for the loaded result set.</p>
                </div>
              </div>
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th>Target</th>
                    <th>Pass rate</th>
                      <th class="table-num">Passed</th>
                      <th class="table-num">Failed</th>
                      <th class="table-num">Errors</th>
                      <th class="table-num">Avg score</th>
                      <th class="table-num">Duration</th>
                      <th class="table-num">Tokens</th>
                      \${HAS_ANY_COST ? '<th class="table-num">Cost</th>' : ''}
                    </tr>
                  </thead>
                  <tbody>
                    \${TARGET_GROUPS.map((group) => {
                      const gradedRows = group.rows.filter((row) => statusOf(row) !== 'error');
                      const avgScore = gradedRows.length > 0
                        ? gradedRows.reduce((sum, row) => sum + row.score, 0) / gradedRows.length
                        : 0;
                      return \`
                        <tr>
                          <td class="id-cell">\${escapeHtml(group.name)}</td>
                      <td>\${renderPassRate(group.stats.pass_rate)}</td>
                          <td class="table-num text-pass">\${escapeHtml(String(group.stats.passed))}</td>
                          <td class="table-num text-fail">\${escapeHtml(String(group.stats.failed))}</td>
                          <td class="table-num text-warn">\${escapeHtml(String(group.stats.errors))}</td>
                          <td class="table-num \${toneForScore(avgScore)}">\${escapeHtml(formatPercent(avgScore))}</td>
                          <td class="table-num">\${escapeHtml(formatDuration(group.stats.total_duration_ms))}</td>
                          <td class="table-num">\${escapeHtml(formatTokens(group.stats.total_tokens))}</td>
                          \${HAS_ANY_COST ? \`<td class="table-num">\${escapeHtml(formatCost(group.stats.total_cost_usd))}</td>\` : ''}
                        </tr>
                      \`;
                    }).join('')}
                  </tbody>
                </table>
              </div>
            </section>
          \`);
        }

        if (OVERALL_STATS.scores.length > 0) {
          const buckets = [0, 0, 0, 0, 0];
          OVERALL_STATS.scores.forEach((score) => {
            const index = Math.min(Math.floor(score * 5), 4);
            buckets[index] += 1;
          });
          const maxBucket = Math.max.apply(null, buckets);
          const labels = ['0-20%', '20-40%', '40-60%', '60-80%', '80-100%'];
          overviewSections.push(\`
            <section class="section">
              <div class="section-heading">
                <div>
                  <h2>Score Distribution</h2>
                  <p>Histogram across all non-error result rows.</p>
                </div>
              </div>
              <div class="histogram">
                \${buckets.map((count, index) => \`
                  <div class="hist-row">
                    <div class="hist-label">\${labels[index]}</div>
                    <div class="hist-bar-track">
                      <div class="hist-bar-fill" style="width:\${maxBucket > 0 ? (count / maxBucket) * 100 : 0}%"></div>
                    </div>
                    <div class="hist-count tabular">\${count}</div>
                  </div>
                \`).join('')}
              </div>
            </section>
          \`);
        }

        APP.innerHTML = overviewSections.join('');
      }

      function renderSortableHeader(label, col) {
        const arrow = STATE.sort.col === col ? (STATE.sort.dir === 'asc' ? ' \u2191' : ' \u2193') : '';
        return \`<th class="sortable" data-sort="\${escapeHtml(col)}">\${escapeHtml(label)}\${arrow}</th>\`;
      }

      function renderTestGroups() {
        const filteredRows = filterRows(DATA, STATE.filter);
        const filteredGroups = groupBy(filteredRows, 'eval_file').sort((a, b) => a.name.localeCompare(b.name));
        const hasMultipleTargets = TARGETS.length > 1;
        const hasCriteria = DATA.some((row) => extractCriteria(row).length > 0);
        if (filteredRows.length === 0) {
          return '<div class="empty-state"><h2>No matching tests</h2><p>Adjust the filters or search text.</p></div>';
        }

        const colCount = 4 + (hasCriteria ? 1 : 0) + (hasMultipleTargets ? 1 : 0) + (HAS_ANY_COST ? 1 : 0);

        return \`
          <div class="group-list">
            \${filteredGroups.map((group) => {
              const sortedRows = sortRows(group.rows, STATE.sort);
              const groupSummary = [];
              groupSummary.push(\`\${group.stats.passed}/\${group.stats.total} passed\`);
              if (group.stats.failed > 0) groupSummary.push(\`\${group.stats.failed} failed\`);
              if (group.stats.errors > 0) groupSummary.push(\`\${group.stats.errors} errors\`);
              return \`
                <section class="group-card">
                  <div class="group-header">
                    <div class="group-title-wrap">
                      <h2 class="group-title">\${escapeHtml(group.name)}</h2>
                      <p class="group-subtitle">\${escapeHtml(groupSummary.join(' | '))}</p>
                    </div>
                    <div class="group-metrics">
                      <div class="metric">
                        <span class="metric-label">Pass rate</span>
                        <span class="metric-value">\${escapeHtml(formatPercent(group.stats.pass_rate))}</span>
                      </div>
                      <div class="metric">
                        <span class="metric-label">Tests</span>
                        <span class="metric-value">\${escapeHtml(String(group.stats.total))}</span>
                      </div>
                      <div class="metric">
                        <span class="metric-label">Duration</span>
                        <span class="metric-value">\${escapeHtml(formatDuration(group.stats.total_duration_ms))}</span>
                      </div>
                    </div>
                  </div>
                  <div class="table-wrap">
                    <table>
                      <thead>
                        <tr>
                          <th class="expand-cell"></th>
                          \${renderSortableHeader('Test ID', 'test_id')}
                          \${hasCriteria ? '<th>Criteria</th>' : ''}
                          \${hasMultipleTargets ? renderSortableHeader('Target', 'target') : ''}
                          \${renderSortableHeader('Score', 'score')}
                          \${renderSortableHeader('Result', 'status')}
                          \${HAS_ANY_COST ? renderSortableHeader('Cost', 'cost_usd') : ''}
                        </tr>
                      </thead>
                      <tbody>
                        \${sortedRows.map((row) => {
                          const expanded = Boolean(STATE.expanded[row._key]);
                          const criteria = extractCriteria(row);
                          return \`
                            <tr class="test-row" data-expand="\${escapeHtml(row._key)}">
                              <td class="expand-cell">\${expanded ? '\\u25BE' : '\\u25B8'}</td>
                              <td class="id-cell">\${escapeHtml(row.test_id)}</td>
                              \${hasCriteria ? \`<td class="criteria-cell">\${escapeHtml(criteria)}</td>\` : ''}
                              \${hasMultipleTargets ? \`<td class="table-muted">\${escapeHtml(row.target)}</td>\` : ''}
                              <td class="table-num \${toneForScore(row.score)}">\${escapeHtml(formatPercent(row.score))}</td>
                              <td>\${renderStatusPill(statusOf(row))}</td>
                              \${HAS_ANY_COST ? \`<td class="table-num">\${escapeHtml(formatCost(row.cost_usd))}</td>\` : ''}
                            </tr>
                            \${expanded ? \`<tr class="detail-row"><td colspan="\${colCount}">\${renderDetail(row, EVALUATOR_NAMES, HAS_ANY_COST)}</td></tr>\` : ''}
                          \`;
                        }).join('')}
                      </tbody>
                    </table>
                  </div>
                </section>
              \`;
            }).join('')}
          </div>
        \`;
      }

      function bindTestEvents() {
        const statusInput = document.getElementById('filter-status');
        const targetInput = document.getElementById('filter-target');
        const searchInput = document.getElementById('filter-search');
        const sortableHeaders = Array.from(document.querySelectorAll('[data-sort]'));
        const expandableRows = Array.from(document.querySelectorAll('[data-expand]'));

        if (statusInput) {
          statusInput.value = STATE.filter.status;
          statusInput.addEventListener('change', (event) => {
            STATE.filter.status = event.target.value;
            render();
          });
        }

        if (targetInput) {
          targetInput.value = STATE.filter.target;
          targetInput.addEventListener('change', (event) => {
            STATE.filter.target = event.target.value;
            render();
          });
        }

        if (searchInput) {
          searchInput.value = STATE.filter.search;
          searchInput.addEventListener('input', (event) => {
            STATE.filter.search = event.target.value;
            render();
          });
        }

        sortableHeaders.forEach((header) => {
          header.addEventListener('click', () => {
            const col = header.getAttribute('data-sort');
            if (STATE.sort.col === col) {
              STATE.sort.dir = STATE.sort.dir === 'asc' ? 'desc' : 'asc';
            } else {
              STATE.sort.col = col;
              STATE.sort.dir = 'asc';
            }
            render();
          });
        });

        expandableRows.forEach((row) => {
          row.addEventListener('click', () => {
            const key = row.getAttribute('data-expand');
            STATE.expanded[key] = !STATE.expanded[key];
            render();
          });
        });
      }

      function renderTests() {
        const filteredRows = filterRows(DATA, STATE.filter);
        APP.innerHTML = \`
          <section class="section">
            <div class="section-heading">
              <div>
                <h2>Test Cases</h2>
                <p>Grouped by source eval file with assertion type badges carried down from parent score entries.</p>
              </div>
            </div>
            <div class="filter-bar">
              <select class="filter-select" id="filter-status" aria-label="Filter by status">
                <option value="all">All status</option>
                <option value="pass">Passed</option>
                <option value="fail">Failed</option>
                <option value="error">Errors</option>
              </select>
              \${TARGETS.length > 1 ? \`
                <select class="filter-select" id="filter-target" aria-label="Filter by target">
                  <option value="all">All targets</option>
                  \${TARGETS.map((target) => \`<option value="\${escapeHtml(target)}">\${escapeHtml(target)}</option>\`).join('')}
                </select>
              \` : ''}
              <input class="filter-input" id="filter-search" type="search" placeholder="Search test IDs, targets, eval files, or assertion text">
              <span class="filter-count">\${escapeHtml(String(filteredRows.length))} of \${escapeHtml(String(DATA.length))} tests</span>
            </div>
            \${renderTestGroups()}
          </section>
        \`;
        bindTestEvents();
      }

      const IS_SMALL = DATA.length <= 20;
      const TAB_NAV = document.getElementById('tab-nav');

      function render() {
        if (IS_SMALL) {
          TAB_NAV.classList.add('hidden');
          renderSinglePage();
        } else {
          TAB_NAV.classList.remove('hidden');
          if (STATE.tab === 'overview') renderOverview();
          else renderTests();
        }
      }

      function renderSinglePage() {
        if (DATA.length === 0) {
          APP.innerHTML = \`
            <div class="empty-state">
              <h2>No results loaded</h2>
              <p>Add one or more parsed JSONL result rows to the template placeholder.</p>
            </div>
          \`;
          return;
        }

        const sections = [];
        sections.push(\`
          <section class="section">
            <div class="stats-grid">
              \${renderStatCard('Total tests', String(OVERALL_STATS.total))}
              \${renderStatCard('Passed', String(OVERALL_STATS.passed), 'tone-pass')}
              \${renderStatCard('Failed', String(OVERALL_STATS.failed), OVERALL_STATS.failed > 0 ? 'tone-fail' : '')}
              \${renderStatCard('Pass rate', formatPercent(OVERALL_STATS.pass_rate), toneClassForRate(OVERALL_STATS.pass_rate))}
              \${renderStatCard('Duration', formatDuration(OVERALL_STATS.total_duration_ms))}
              \${HAS_ANY_COST ? renderStatCard('Cost', formatCost(OVERALL_STATS.total_cost_usd)) : ''}
            </div>
          </section>
        \`);

        sections.push(\`
          <section class="section">
            <div class="filter-bar">
              <select class="filter-select" id="filter-status" aria-label="Filter by status">
                <option value="all">All status</option>
                <option value="pass">Passed</option>
                <option value="fail">Failed</option>
                <option value="error">Errors</option>
              </select>
              <input class="filter-input" id="filter-search" type="search" placeholder="Search test IDs, targets, or assertion text">
            </div>
            \${renderTestGroups()}
          </section>
        \`);

        APP.innerHTML = sections.join('');
        bindTestEvents();
      }

      syncHeaderMeta();
      render();
    })();
  </script>
</body>
</html>
`;

// src/commands/results/report.ts
var DEFAULT_REPORT_SUBTITLE = "Dashboard-themed HTML generated from an existing AgentV results workspace.";
function normalizeEvalFileLabel(value) {
  const trimmed = value?.trim();
  if (!trimmed) {
    return void 0;
  }
  return path23.basename(trimmed).replace(/\.results\.jsonl$/i, "").replace(/\.eval\.ya?ml$/i, "").replace(/\.ya?ml$/i, "").replace(/\.jsonl$/i, "");
}
function readSummaryEvalFile(sourceFile) {
  return readSummaryReportMetadata(sourceFile).evalFile;
}
function readSummaryReportMetadata(sourceFile) {
  const sourceDir = path23.dirname(sourceFile);
  const runDir = path23.basename(sourceDir) === RUN_INTERNAL_DIRNAME ? path23.dirname(sourceDir) : sourceDir;
  const summaryPath = path23.join(runDir, "summary.json");
  if (!existsSync12(summaryPath)) {
    return {};
  }
  try {
    const summary = JSON.parse(readFileSync10(summaryPath, "utf8"));
    return {
      evalFile: normalizeEvalFileLabel(summary.metadata?.eval_file),
      ...summary.metadata?.experiment && { experiment: summary.metadata.experiment },
      ...summary.metadata?.runtime_source && { runtimeSource: summary.metadata.runtime_source }
    };
  } catch {
    return {};
  }
}
function deriveReportPath(sourceFile) {
  const sourceDir = path23.dirname(sourceFile);
  const runDir = path23.basename(sourceDir) === RUN_INTERNAL_DIRNAME ? path23.dirname(sourceDir) : sourceDir;
  return path23.join(runDir, "report.html");
}
function serializeReportResult(result, sourceFile, manifestRecord, summaryMetadata) {
  const runtimeSource = manifestRecord?.runtime_source ?? summaryMetadata?.runtimeSource;
  const resultExperiment = result.experiment;
  const experimentNamespace = manifestRecord?.experiment ?? summaryMetadata?.experiment ?? resultExperiment;
  const fallbackEvalFile = normalizeEvalFileLabel(manifestRecord?.eval_file) ?? summaryMetadata?.evalFile ?? normalizeEvalFileLabel(result.suite) ?? path23.basename(path23.dirname(sourceFile));
  return {
    timestamp: result.timestamp,
    test_id: result.testId,
    suite: result.suite,
    category: result.category,
    target: result.target,
    score: result.score,
    scores: result.scores,
    execution_status: result.executionStatus,
    error: result.error,
    duration_ms: result.durationMs,
    token_usage: result.tokenUsage,
    cost_usd: result.costUsd,
    input: result.input,
    output: result.output,
    assertions: result.assertions,
    experiment: experimentNamespace,
    runtime_source: runtimeSource,
    runtime_source_label: formatRuntimeSourceLabel(runtimeSource),
    runtime_config_source_label: formatRuntimeConfigSourceLabel(runtimeSource?.config_source),
    eval_file: fallbackEvalFile
  };
}
function formatRuntimeConfigSourceLabel(source) {
  switch (source) {
    case "inline_experiment":
      return "Inline experiment config";
    case "cli_flags":
      return "CLI runtime flags";
    case "mixed":
      return "Mixed runtime config";
    case "defaults":
      return "Default runtime config";
    default:
      return "";
  }
}
function formatRuntimeSourceLabel(runtimeSource) {
  if (!runtimeSource) {
    return "";
  }
  return formatRuntimeConfigSourceLabel(runtimeSource.config_source);
}
function uniqueStrings(values) {
  return [
    ...new Set(
      values.map((value) => value?.trim()).filter((value) => Boolean(value))
    )
  ].sort();
}
function escapeHtml2(value) {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
function formatReportHeaderContext(rows) {
  const experiments = uniqueStrings(
    rows.map((row) => typeof row.experiment === "string" ? row.experiment : void 0)
  );
  const runtimeSources = uniqueStrings(
    rows.map(
      (row) => typeof row.runtime_source_label === "string" ? row.runtime_source_label : void 0
    )
  );
  const parts = [
    experiments.length === 1 ? `Experiment namespace: ${experiments[0]}` : experiments.length > 1 ? `Experiment namespaces: ${experiments.join(", ")}` : void 0,
    runtimeSources.length === 1 ? `Runtime source: ${runtimeSources[0]}` : runtimeSources.length > 1 ? `Runtime sources: ${runtimeSources.join(", ")}` : void 0
  ].filter((part) => Boolean(part));
  return parts.length > 0 ? parts.join(" \xB7 ") : DEFAULT_REPORT_SUBTITLE;
}
async function loadReportSource(source, cwd) {
  const { sourceFile } = await resolveSourceFile(source, cwd);
  const resolvedSourceFile = resolveResultSourcePath(sourceFile, cwd);
  const content = readFileSync10(resolvedSourceFile, "utf8");
  const records = parseResultManifest(content);
  const results = loadManifestResults(resolvedSourceFile);
  if (results.length === 0) {
    throw new Error(`No results found in ${resolvedSourceFile}`);
  }
  return {
    sourceFile: resolvedSourceFile,
    results,
    records,
    summaryEvalFile: readSummaryEvalFile(resolvedSourceFile),
    summaryMetadata: readSummaryReportMetadata(resolvedSourceFile)
  };
}
function renderResultsReport(results, sourceFile, records, summaryMetadata) {
  if (!RESULTS_REPORT_TEMPLATE.includes("__DATA_PLACEHOLDER__")) {
    throw new Error("Report template is missing __DATA_PLACEHOLDER__");
  }
  const rows = results.map(
    (result, index) => serializeReportResult(result, sourceFile, records[index], summaryMetadata)
  );
  const dataJson = JSON.stringify(rows).replace(/<\//g, "<\\/");
  return RESULTS_REPORT_TEMPLATE.replace("__DATA_PLACEHOLDER__", () => dataJson).replace(
    DEFAULT_REPORT_SUBTITLE,
    escapeHtml2(formatReportHeaderContext(rows))
  );
}
async function writeResultsReport(source, outputPath, cwd) {
  const { sourceFile, results, records, summaryMetadata } = await loadReportSource(source, cwd);
  const resolvedOutputPath = outputPath ? path23.isAbsolute(outputPath) ? outputPath : path23.resolve(cwd, outputPath) : deriveReportPath(sourceFile);
  const html = renderResultsReport(results, sourceFile, records, summaryMetadata);
  mkdirSync3(path23.dirname(resolvedOutputPath), { recursive: true });
  writeFileSync4(resolvedOutputPath, html, "utf8");
  const written = readFileSync10(resolvedOutputPath, "utf8");
  if (written.includes("__DATA_PLACEHOLDER__")) {
    throw new Error("Report placeholder substitution failed");
  }
  return { sourceFile, outputPath: resolvedOutputPath, html: written };
}
var resultsReportCommand = command({
  name: "report",
  description: "Generate a static HTML report from a run workspace or run manifest",
  args: {
    source: sourceArg,
    out: option({
      type: optional(string),
      long: "out",
      short: "o",
      description: "Output HTML file (defaults to <run-dir>/report.html)"
    }),
    dir: option({
      type: optional(string),
      long: "dir",
      short: "d",
      description: "Working directory (default: current directory)"
    })
  },
  handler: async ({ source, out, dir }) => {
    const cwd = dir ?? process.cwd();
    try {
      const { sourceFile, outputPath } = await writeResultsReport(source, out, cwd);
      console.log(`Report written to ${outputPath}`);
      console.log(`Source: ${sourceFile}`);
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
  }
});

// src/commands/results/show.ts
function findResult(results, testId) {
  return results.find((r) => r.testId === testId);
}
function formatInput(result) {
  const input = result.input;
  if (!input) return "(no input)";
  if (typeof input === "string") return input;
  if (Array.isArray(input)) {
    return input.map((msg) => String(msg.content ?? "")).join("\n");
  }
  return "(no input)";
}
function formatOutput(result) {
  if (!result.output || result.output.length === 0) return "(no output)";
  return result.output;
}
function formatShow(result) {
  const usage = result.tokenUsage;
  let allAssertions = (result.assertions ?? []).map((a) => ({
    text: a.text,
    passed: a.passed,
    evidence: a.evidence
  }));
  if (allAssertions.length === 0 && result.scores) {
    allAssertions = result.scores.flatMap(
      (s) => (s.assertions ?? []).map((a) => ({
        text: a.text,
        passed: a.passed,
        evidence: a.evidence
      }))
    );
  }
  const totalTokens = usage ? (usage.input ?? 0) + (usage.output ?? 0) : void 0;
  return {
    test_id: result.testId,
    score: result.score,
    duration_ms: result.durationMs,
    total_tokens: totalTokens,
    input: formatInput(result),
    assertions: allAssertions,
    response: formatOutput(result)
  };
}
var resultsShowCommand = command({
  name: "show",
  description: "Show full detail for a single test result",
  args: {
    source: sourceArg,
    testId: option({
      type: string,
      long: "test-id",
      short: "t",
      description: "Test ID to display"
    }),
    dir: option({
      type: optional(string),
      long: "dir",
      short: "d",
      description: "Working directory (default: current directory)"
    })
  },
  handler: async ({ source, testId, dir }) => {
    const cwd = dir ?? process.cwd();
    try {
      const { results } = await loadResults(source, cwd);
      const result = findResult(results, testId);
      if (!result) {
        const available = results.map((r) => r.testId).join(", ");
        console.error(`Error: Test ID "${testId}" not found.`);
        console.error(`Available test IDs: ${available}`);
        process.exit(1);
      }
      console.log(JSON.stringify(formatShow(result), null, 2));
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
  }
});

// src/commands/results/summary.ts
import { existsSync as existsSync13, readFileSync as readFileSync11 } from "node:fs";
function formatSummary(results, grading) {
  const total = results.length;
  let passed;
  let failed;
  let passRate;
  if (grading) {
    const metadata = grading.metadata ?? {};
    const passedSamples = typeof metadata.passed_samples === "number" ? metadata.passed_samples : typeof metadata.pass_count === "number" ? metadata.pass_count : void 0;
    const totalSamples = typeof metadata.total_samples === "number" ? metadata.total_samples : typeof metadata.sample_count === "number" ? metadata.sample_count : void 0;
    passed = passedSamples ?? (grading.pass ? total : 0);
    failed = totalSamples !== void 0 && passedSamples !== void 0 ? totalSamples - passed : total - passed;
    passRate = typeof metadata.pass_rate === "number" ? metadata.pass_rate : total > 0 ? Math.round(passed / total * 1e3) / 1e3 : 0;
  } else {
    passed = results.filter((r) => r.score >= 1).length;
    failed = total - passed;
    passRate = total > 0 ? Math.round(results.reduce((s, r) => s + r.score, 0) / total * 1e3) / 1e3 : 0;
  }
  let totalDurationMs = 0;
  let totalTokens = 0;
  for (const r of results) {
    if (r.durationMs != null) totalDurationMs += r.durationMs;
    const usage = r.tokenUsage;
    if (usage) totalTokens += (usage.input ?? 0) + (usage.output ?? 0);
  }
  const failedTestIds = results.filter((r) => r.score < 1).map((r) => r.testId);
  return {
    total,
    passed,
    failed,
    pass_rate: { mean: passRate },
    total_duration_ms: totalDurationMs,
    total_tokens: totalTokens,
    failed_test_ids: failedTestIds
  };
}
var resultsSummaryCommand = command({
  name: "summary",
  description: "Show compact pass/fail summary of eval results",
  args: {
    source: sourceArg,
    dir: option({
      type: optional(string),
      long: "dir",
      short: "d",
      description: "Working directory (default: current directory)"
    })
  },
  handler: async ({ source, dir }) => {
    const cwd = dir ?? process.cwd();
    try {
      const { results, sourceFile } = await loadResults(source, cwd);
      let grading;
      const gradingPath = sourceFile.replace(/\.jsonl$/, ".grading.json");
      if (existsSync13(gradingPath)) {
        try {
          grading = JSON.parse(readFileSync11(gradingPath, "utf8"));
        } catch {
        }
      }
      console.log(JSON.stringify(formatSummary(results, grading), null, 2));
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
  }
});

// src/commands/results/validate.ts
import { existsSync as existsSync14, readFileSync as readFileSync12, statSync as statSync5 } from "node:fs";
import path24 from "node:path";
var LEGACY_GRADING_FIELDS = [
  "assertion_results",
  "assertions",
  "passed",
  "evidence",
  "verdict",
  "graders",
  "checks"
];
function isRecord2(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function validateGradingNode(value, pathLabel) {
  if (!isRecord2(value)) {
    return [`${pathLabel} must be an object`];
  }
  const errors = [];
  if (typeof value.pass !== "boolean" || typeof value.score !== "number" || typeof value.reason !== "string") {
    errors.push(`${pathLabel} must include pass, score, and reason`);
  }
  if (value.component_results !== void 0) {
    if (!Array.isArray(value.component_results)) {
      errors.push(`${pathLabel}.component_results must be an array when present`);
    } else {
      value.component_results.forEach((component, index) => {
        errors.push(...validateGradingNode(component, `${pathLabel}.component_results[${index}]`));
      });
    }
  }
  return errors;
}
function validateNoLegacyGradingFields(value, pathLabel) {
  if (Array.isArray(value)) {
    return value.flatMap(
      (entry, index) => validateNoLegacyGradingFields(entry, `${pathLabel}[${index}]`)
    );
  }
  if (!isRecord2(value)) {
    return [];
  }
  const errors = [];
  const legacyFields = LEGACY_GRADING_FIELDS.filter((field) => Object.hasOwn(value, field));
  if (legacyFields.length > 0) {
    errors.push(`${pathLabel} uses legacy field(s): ${legacyFields.join(", ")}`);
  }
  for (const [key, entry] of Object.entries(value)) {
    errors.push(...validateNoLegacyGradingFields(entry, `${pathLabel}.${key}`));
  }
  return errors;
}
function validateMetricsArtifact(value) {
  if (!isRecord2(value)) {
    return [{ severity: "error", message: "metrics.json must be an object" }];
  }
  const diagnostics = [];
  const schemaVersion = value.schema_version;
  const isCurrentSchema = schemaVersion === METRICS_SCHEMA_VERSION;
  const isLegacySchema = schemaVersion === LEGACY_METRICS_SCHEMA_VERSION;
  if (isCurrentSchema && Object.hasOwn(value, "trace")) {
    diagnostics.push({
      severity: "error",
      message: "metrics.json must not include trace in agentv.metrics.v2"
    });
  } else if (isLegacySchema && Object.hasOwn(value, "trace")) {
    diagnostics.push({
      severity: "warning",
      message: "metrics.json uses legacy trace identity; readers ignore it"
    });
  }
  if (isCurrentSchema && Object.hasOwn(value, "metrics")) {
    diagnostics.push({
      severity: "error",
      message: "metrics.json must not include nested metrics in agentv.metrics.v2"
    });
  } else if (isLegacySchema && Object.hasOwn(value, "metrics")) {
    diagnostics.push({
      severity: "warning",
      message: "metrics.json uses legacy nested metrics; readers flatten it"
    });
  }
  if (!normalizeMetricsArtifactWire(value)) {
    diagnostics.push({
      severity: "error",
      message: "metrics.json does not match a supported metrics artifact shape"
    });
  }
  return diagnostics;
}
function checkDirectoryNaming(runDir) {
  const dirName = path24.basename(runDir);
  const pathSegments = path24.normalize(runDir).split(path24.sep).filter(Boolean);
  const resultsIndex = pathSegments.lastIndexOf("results");
  const diagnostics = [];
  if (resultsIndex >= 0 && pathSegments[resultsIndex + 1] === "runs") {
    diagnostics.push({
      severity: "error",
      message: "The .agentv/results/runs namespace is no longer supported. Expected: .agentv/results/<run_id>"
    });
  } else if (resultsIndex < 0 || resultsIndex !== pathSegments.length - 2) {
    diagnostics.push({
      severity: "warning",
      message: "Directory is not under the canonical results tree. Expected: .agentv/results/<run_id>"
    });
  }
  const isNewFormat = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.test(dirName);
  if (!isNewFormat) {
    diagnostics.push({
      severity: "warning",
      message: `Directory name '${dirName}' does not match the expected pattern '<ISO-timestamp>'. Example: 2026-03-27T12-42-24-429Z`
    });
  }
  return diagnostics;
}
function validateRunDirectory(runDir) {
  const diagnostics = [];
  diagnostics.push(...checkDirectoryNaming(runDir));
  const { diagnostics: indexDiags, entries: entries2 } = checkIndexJsonl(runDir);
  diagnostics.push(...indexDiags);
  if (entries2.length > 0) {
    diagnostics.push(...checkArtifactFiles(runDir, entries2));
  }
  return { diagnostics, entries: entries2 };
}
function checkIndexJsonl(runDir) {
  const indexPath = resolveExistingRunPrimaryPath(runDir);
  const diagnostics = [];
  const entries2 = [];
  const manifestLabel = indexPath ? path24.basename(indexPath) : RESULT_INDEX_FILENAME2;
  if (!indexPath || !existsSync14(indexPath)) {
    diagnostics.push({
      severity: "error",
      message: `${RESULT_INDEX_FILENAME2} is missing`
    });
    return { diagnostics, entries: entries2 };
  }
  const content = readFileSync12(indexPath, "utf8");
  const lines = content.split("\n").filter((l) => l.trim().length > 0);
  if (lines.length === 0) {
    diagnostics.push({ severity: "error", message: `${manifestLabel} is empty` });
    return { diagnostics, entries: entries2 };
  }
  for (let i = 0; i < lines.length; i++) {
    try {
      const entry = JSON.parse(lines[i]);
      entries2.push(entry);
      if (!entry.test_id) {
        diagnostics.push({
          severity: "error",
          message: `${manifestLabel} line ${i + 1}: missing 'test_id'`
        });
      }
      if (entry.score === void 0 || entry.score === null) {
        diagnostics.push({
          severity: "error",
          message: `${manifestLabel} line ${i + 1} (${entry.test_id ?? "?"}): missing 'score'`
        });
      } else if (typeof entry.score !== "number" || entry.score < 0 || entry.score > 1) {
        diagnostics.push({
          severity: "error",
          message: `${manifestLabel} line ${i + 1} (${entry.test_id ?? "?"}): score ${entry.score} is outside [0, 1]`
        });
      }
      if (!entry.target) {
        diagnostics.push({
          severity: "error",
          message: `${manifestLabel} line ${i + 1} (${entry.test_id ?? "?"}): missing 'target'`
        });
      }
      if (!entry.summary_path) {
        diagnostics.push({
          severity: "error",
          message: `${manifestLabel} line ${i + 1} (${entry.test_id ?? "?"}): missing 'summary_path'`
        });
      }
      if (typeof entry.trace_path === "string") {
        diagnostics.push({
          severity: "error",
          message: `${manifestLabel} line ${i + 1} (${entry.test_id ?? "?"}): trace_path is no longer supported; use transcript_path and metrics_path`
        });
      }
      const artifactPointers = entry.artifact_pointers;
      if (artifactPointers && typeof artifactPointers === "object" && !Array.isArray(artifactPointers) && Object.hasOwn(artifactPointers, "trace")) {
        diagnostics.push({
          severity: "error",
          message: `${manifestLabel} line ${i + 1} (${entry.test_id ?? "?"}): artifact_pointers.trace is no longer supported`
        });
      }
      if (!entry.scores || !Array.isArray(entry.scores) || entry.scores.length === 0) {
        diagnostics.push({
          severity: "warning",
          message: `${manifestLabel} line ${i + 1} (${entry.test_id ?? "?"}): missing 'scores[]' array \u2014 dashboard may not show per-grader breakdown`
        });
      } else {
        for (let j = 0; j < entry.scores.length; j++) {
          const s = entry.scores[j];
          if (!s || typeof s !== "object") {
            diagnostics.push({
              severity: "error",
              message: `${manifestLabel} line ${i + 1} (${entry.test_id ?? "?"}): scores[${j}] is not an object`
            });
            continue;
          }
          const missing = [];
          if (typeof s.name !== "string") missing.push("name");
          if (typeof s.type !== "string") missing.push("type");
          if (typeof s.score !== "number") missing.push("score");
          if (typeof s.pass !== "boolean") missing.push("pass");
          if (typeof s.reason !== "string") missing.push("reason");
          if (missing.length > 0) {
            diagnostics.push({
              severity: "warning",
              message: `${manifestLabel} line ${i + 1} (${entry.test_id ?? "?"}): scores[${j}] missing fields: ${missing.join(", ")}`
            });
          }
        }
      }
      if (!entry.execution_status) {
        diagnostics.push({
          severity: "warning",
          message: `${manifestLabel} line ${i + 1} (${entry.test_id ?? "?"}): missing 'execution_status'`
        });
      } else if (!["ok", "quality_failure", "execution_error"].includes(entry.execution_status)) {
        diagnostics.push({
          severity: "warning",
          message: `${manifestLabel} line ${i + 1} (${entry.test_id ?? "?"}): unknown execution_status '${entry.execution_status}' (expected: ok, quality_failure, execution_error)`
        });
      }
    } catch {
      diagnostics.push({
        severity: "error",
        message: `${manifestLabel} line ${i + 1}: invalid JSON`
      });
    }
  }
  return { diagnostics, entries: entries2 };
}
function checkArtifactFiles(runDir, entries2) {
  const diagnostics = [];
  for (const entry of entries2) {
    const testId = entry.test_id ?? "?";
    if (entry.summary_path) {
      const summaryPath2 = path24.join(runDir, entry.summary_path);
      if (!existsSync14(summaryPath2)) {
        diagnostics.push({
          severity: "error",
          message: `${testId}: summary.json not found at '${entry.summary_path}'`
        });
      }
    }
    for (const sample of entry.samples ?? entry.attempts ?? entry.trials ?? []) {
      const samplePath = sample.sample_path ?? sample.attempt_path ?? sample.run_path;
      if (!entry.result_dir || !samplePath) {
        continue;
      }
      const runDirPath = path24.join(runDir, entry.result_dir, samplePath);
      const resultPath = path24.join(runDirPath, "result.json");
      const gradingPath = path24.join(runDirPath, "grading.json");
      if (!existsSync14(resultPath)) {
        diagnostics.push({
          severity: "error",
          message: `${testId}: result.json not found at '${path24.posix.join(entry.result_dir, samplePath, "result.json")}'`
        });
      }
      if (!existsSync14(gradingPath)) {
        diagnostics.push({
          severity: "error",
          message: `${testId}: grading.json not found at '${path24.posix.join(entry.result_dir, samplePath, "grading.json")}'`
        });
      }
    }
    if (entry.grading_path) {
      const gradingPath = path24.join(runDir, entry.grading_path);
      if (!existsSync14(gradingPath)) {
        diagnostics.push({
          severity: "error",
          message: `${testId}: grading.json not found at '${entry.grading_path}'`
        });
      } else {
        try {
          const grading = JSON.parse(readFileSync12(gradingPath, "utf8"));
          for (const error of [
            ...validateGradingNode(grading, "grading.json"),
            ...validateNoLegacyGradingFields(grading, "grading.json")
          ]) {
            diagnostics.push({
              severity: "error",
              message: `${testId}: ${error}`
            });
          }
        } catch {
          diagnostics.push({
            severity: "error",
            message: `${testId}: grading.json is not valid JSON`
          });
        }
      }
    }
    if (entry.metrics_path) {
      const metricsPath = path24.join(runDir, entry.metrics_path);
      if (!existsSync14(metricsPath)) {
        diagnostics.push({
          severity: "warning",
          message: `${testId}: metrics.json not found at '${entry.metrics_path}'`
        });
      } else {
        try {
          const metrics = JSON.parse(readFileSync12(metricsPath, "utf8"));
          for (const diagnostic of validateMetricsArtifact(metrics)) {
            diagnostics.push({
              severity: diagnostic.severity,
              message: `${testId}: ${diagnostic.message}`
            });
          }
        } catch {
          diagnostics.push({
            severity: "error",
            message: `${testId}: metrics.json is not valid JSON`
          });
        }
      }
    }
  }
  const summaryPath = path24.join(runDir, "summary.json");
  if (!existsSync14(summaryPath)) {
    diagnostics.push({ severity: "error", message: "summary.json is missing" });
  }
  return diagnostics;
}
var resultsValidateCommand = command({
  name: "validate",
  description: "Validate that a run directory contains well-formed result artifacts",
  args: {
    runDir: positional({
      type: string,
      displayName: "run-dir",
      description: "Path to the run directory to validate"
    })
  },
  handler: async ({ runDir }) => {
    const resolvedDir = path24.resolve(runDir);
    if (!existsSync14(resolvedDir) || !statSync5(resolvedDir).isDirectory()) {
      console.error(`Error: '${runDir}' is not a directory`);
      process.exit(1);
    }
    const { diagnostics: allDiagnostics, entries: entries2 } = validateRunDirectory(resolvedDir);
    const errors = allDiagnostics.filter((d) => d.severity === "error");
    const warnings = allDiagnostics.filter((d) => d.severity === "warning");
    if (allDiagnostics.length === 0) {
      console.log(`\u2713 Valid run directory: ${entries2.length} test(s), no issues found`);
      return;
    }
    for (const d of errors) {
      console.error(`  ERROR: ${d.message}`);
    }
    for (const d of warnings) {
      console.warn(`  WARN:  ${d.message}`);
    }
    console.log(
      `
${entries2.length} test(s), ${errors.length} error(s), ${warnings.length} warning(s)`
    );
    if (errors.length > 0) {
      process.exit(1);
    }
  }
});

// src/commands/results/index.ts
var resultsCommand = subcommands({
  name: "results",
  description: "Inspect, export, and manage local evaluation results",
  cmds: {
    combine: resultsCombineCommand,
    compare: compareCommand,
    delete: resultsDeleteCommand,
    export: resultsExportCommand,
    report: resultsReportCommand,
    summary: resultsSummaryCommand,
    failures: resultsFailuresCommand,
    show: resultsShowCommand,
    trend: trendCommand,
    validate: resultsValidateCommand
  }
});

// src/commands/results/serve.ts
import {
  existsSync as existsSync17,
  readFileSync as readFileSync14,
  readdirSync as readdirSync4,
  realpathSync,
  statSync as statSync6
} from "node:fs";
import { homedir } from "node:os";
import path27 from "node:path";
import { fileURLToPath as fileURLToPath3 } from "node:url";
import { Hono } from "hono";

// src/commands/results/eval-runner.ts
import { execFileSync as execFileSync2, spawn as spawn2 } from "node:child_process";
import { createWriteStream, existsSync as existsSync15, mkdirSync as mkdirSync4 } from "node:fs";
import path25 from "node:path";
import { fileURLToPath as fileURLToPath2 } from "node:url";
var activeRuns = /* @__PURE__ */ new Map();
function generateRunId() {
  const now = /* @__PURE__ */ new Date();
  const pad = (n, w = 2) => String(n).padStart(w, "0");
  const ts = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  const rand = Math.random().toString(36).slice(2, 6);
  return `dashboard-${ts}-${rand}`;
}
function pruneFinishedRuns() {
  const finished = [...activeRuns.entries()].filter(([, r]) => r.status === "finished" || r.status === "failed").sort((a, b) => (b[1].finishedAt ?? "").localeCompare(a[1].finishedAt ?? ""));
  if (finished.length > 20) {
    for (const [id] of finished.slice(20)) {
      activeRuns.delete(id);
    }
  }
}
function getActiveRunTarget(indexJsonlPath) {
  for (const run2 of activeRuns.values()) {
    if (run2.outputDir && path25.join(run2.outputDir, RESULT_INDEX_FILENAME2) === indexJsonlPath) {
      return run2.target;
    }
  }
  return void 0;
}
function getActiveRunStatus(indexJsonlPath) {
  for (const run2 of activeRuns.values()) {
    if (run2.outputDir && path25.join(run2.outputDir, RESULT_INDEX_FILENAME2) === indexJsonlPath) {
      return run2.status;
    }
  }
  return void 0;
}
async function discoverTargetsInProject(cwd) {
  const repoRoot = await findRepoRoot(cwd) ?? cwd;
  let targetsFilePath;
  for (const candidate of TARGET_FILE_CANDIDATES) {
    const fullPath = path25.join(cwd, candidate);
    if (existsSync15(fullPath)) {
      targetsFilePath = fullPath;
      break;
    }
  }
  if (!targetsFilePath) {
    for (const candidate of TARGET_FILE_CANDIDATES) {
      const fullPath = path25.join(repoRoot, candidate);
      if (existsSync15(fullPath)) {
        targetsFilePath = fullPath;
        break;
      }
    }
  }
  if (!targetsFilePath) return [];
  try {
    const definitions = await readTargetDefinitions(targetsFilePath);
    return listTargetNames(definitions);
  } catch {
    return [];
  }
}
function validateResumeOptions(req) {
  const modes = [];
  if (req.resume) modes.push("resume");
  if (req.rerun_failed) modes.push("rerun_failed");
  if (req.retry_errors?.trim()) {
    modes.push("retry_errors");
  }
  if (modes.length > 1) {
    return `resume, rerun_failed, and retry_errors are mutually exclusive (got: ${modes.join(", ")})`;
  }
  if (req.rerun_failed && !req.output?.trim()) {
    return "rerun_failed requires output to identify the prior run workspace";
  }
  return void 0;
}
function normalizeRunMetadata(req) {
  const experiment = normalizeExperimentName(req.experiment);
  if ((req.resume || req.rerun_failed) && req.experiment?.trim()) {
    throw new Error("experiment cannot be changed when resuming an existing run");
  }
  return { experiment };
}
function buildCliArgs(req, experiment) {
  const args = ["eval"];
  if (req.suite_filter?.trim()) {
    for (const part of req.suite_filter.split(",")) {
      const trimmed = part.trim();
      if (trimmed) args.push(trimmed);
    }
  }
  if (req.test_ids && req.test_ids.length > 0) {
    for (const id of req.test_ids) {
      const trimmed = id.trim();
      if (trimmed) {
        args.push("--test-id", trimmed);
      }
    }
  }
  if (req.target?.trim()) {
    args.push("--target", req.target.trim());
  }
  if (experiment && req.experiment?.trim()) {
    args.push("--experiment", experiment);
  }
  if (req.threshold !== void 0 && req.threshold !== null) {
    args.push("--threshold", String(req.threshold));
  }
  if (req.workers !== void 0 && req.workers !== null) {
    args.push("--workers", String(req.workers));
  }
  if (req.output?.trim()) {
    args.push("--output", req.output.trim());
  }
  if (req.resume) {
    args.push("--resume");
  }
  if (req.rerun_failed) {
    args.push("--rerun-failed", req.output?.trim() ?? "");
  }
  if (req.retry_errors?.trim()) {
    args.push("--retry-errors", req.retry_errors.trim());
  }
  return args;
}
function buildCliPreview(args) {
  return `agentv ${args.map((a) => a.includes(" ") || a.includes("*") ? `"${a}"` : a).join(" ")}`;
}
function resolveCliPath(cwd) {
  const candidates = [
    path25.join(cwd, "apps/cli/src/cli.ts"),
    path25.join(cwd, "apps/cli/dist/cli.js")
  ];
  for (const c4 of candidates) {
    if (existsSync15(c4)) {
      return { binPath: "bun", args: [c4] };
    }
  }
  const currentDir = typeof __dirname !== "undefined" ? __dirname : path25.dirname(fileURLToPath2(import.meta.url));
  const fromSrc = path25.resolve(currentDir, "../../cli.ts");
  const fromDist = path25.resolve(currentDir, "cli.js");
  if (existsSync15(fromSrc)) return { binPath: "bun", args: [fromSrc] };
  if (existsSync15(fromDist)) return { binPath: "bun", args: [fromDist] };
  if (isCommandAvailable("agentv")) {
    return { binPath: "agentv", args: [] };
  }
  return void 0;
}
function isCommandAvailable(cmd) {
  try {
    execFileSync2(process.platform === "win32" ? "where" : "which", [cmd], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
function openConsoleLogStream(outputDir) {
  try {
    mkdirSync4(outputDir, { recursive: true });
    const stream = createWriteStream(path25.join(outputDir, "console.log"), { flags: "w" });
    stream.on("error", () => {
    });
    return stream;
  } catch {
    return void 0;
  }
}
function registerEvalRoutes(app2, getCwd, options) {
  const readOnly = options?.readOnly === true;
  app2.get("/api/eval/discover", async (c4) => {
    const cwd = getCwd(c4);
    try {
      const files = await discoverEvalFiles(cwd);
      return c4.json({
        eval_files: files.map((f) => ({
          path: f.path,
          relative_path: f.relativePath,
          category: f.category
        }))
      });
    } catch (err2) {
      return c4.json({ error: err2.message, eval_files: [] }, 500);
    }
  });
  app2.get("/api/eval/targets", async (c4) => {
    const cwd = getCwd(c4);
    try {
      const names = await discoverTargetsInProject(cwd);
      return c4.json({ targets: names });
    } catch (err2) {
      return c4.json({ error: err2.message, targets: [] }, 500);
    }
  });
  app2.post("/api/eval/run", async (c4) => {
    if (readOnly) {
      return c4.json({ error: "Dashboard is running in read-only mode" }, 403);
    }
    const cwd = getCwd(c4);
    let body;
    try {
      body = await c4.req.json();
    } catch {
      return c4.json({ error: "Invalid JSON body" }, 400);
    }
    if (!body.suite_filter?.trim() && (!body.test_ids || body.test_ids.length === 0)) {
      return c4.json({ error: "Provide suite_filter or test_ids" }, 400);
    }
    const resumeError = validateResumeOptions(body);
    if (resumeError) {
      return c4.json({ error: resumeError }, 400);
    }
    let metadata;
    try {
      metadata = normalizeRunMetadata(body);
    } catch (err2) {
      return c4.json({ error: err2.message }, 400);
    }
    const cliPaths = resolveCliPath(cwd);
    if (!cliPaths) {
      return c4.json({ error: "Cannot locate agentv CLI entry point" }, 500);
    }
    const args = buildCliArgs(body, metadata.experiment);
    const outputDir = body.output?.trim() ? path25.resolve(cwd, body.output.trim()) : buildDefaultRunDir(cwd, metadata.experiment);
    if (!body.output?.trim()) {
      args.push("--output", outputDir);
    }
    const command2 = buildCliPreview(args);
    const runId = generateRunId();
    const run2 = {
      id: runId,
      status: "starting",
      command: command2,
      target: body.target?.trim() || void 0,
      outputDir,
      startedAt: (/* @__PURE__ */ new Date()).toISOString(),
      stdout: "",
      stderr: ""
    };
    activeRuns.set(runId, run2);
    try {
      const child = spawn2(cliPaths.binPath, [...cliPaths.args, ...args], {
        cwd,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env },
        // Windows requires shell:true to execute .cmd/.bat wrappers (e.g. npm-installed agentv.cmd)
        shell: process.platform === "win32"
      });
      run2.process = child;
      run2.status = "running";
      const logStream = openConsoleLogStream(outputDir);
      child.stdout?.on("data", (chunk) => {
        logStream?.write(chunk);
        run2.stdout += chunk.toString();
        if (run2.stdout.length > 1e5) {
          run2.stdout = run2.stdout.slice(-8e4);
        }
      });
      child.stderr?.on("data", (chunk) => {
        logStream?.write(chunk);
        run2.stderr += chunk.toString();
        if (run2.stderr.length > 1e5) {
          run2.stderr = run2.stderr.slice(-8e4);
        }
      });
      child.on("close", (code) => {
        run2.exitCode = code;
        run2.status = code === 0 ? "finished" : "failed";
        run2.finishedAt = (/* @__PURE__ */ new Date()).toISOString();
        run2.process = void 0;
        logStream?.end();
        pruneFinishedRuns();
      });
      child.on("error", (err2) => {
        run2.status = "failed";
        run2.stderr += `
Process error: ${err2.message}`;
        run2.finishedAt = (/* @__PURE__ */ new Date()).toISOString();
        run2.process = void 0;
        logStream?.write(`
Process error: ${err2.message}
`);
        logStream?.end();
      });
      return c4.json(
        {
          id: runId,
          status: run2.status,
          command: command2
        },
        202
      );
    } catch (err2) {
      run2.status = "failed";
      run2.stderr = err2.message;
      run2.finishedAt = (/* @__PURE__ */ new Date()).toISOString();
      return c4.json({ error: err2.message }, 500);
    }
  });
  app2.post("/api/eval/run/:id/stop", (c4) => {
    if (readOnly) {
      return c4.json({ error: "Dashboard is running in read-only mode" }, 403);
    }
    const id = c4.req.param("id");
    const run2 = activeRuns.get(id ?? "");
    if (!run2) return c4.json({ error: "Run not found" }, 404);
    if (run2.status === "finished" || run2.status === "failed" || !run2.process) {
      return c4.json({ stopped: false, reason: "already_terminal", status: run2.status });
    }
    try {
      run2.process.kill("SIGTERM");
    } catch (err2) {
      return c4.json({ error: err2.message }, 500);
    }
    return c4.json({ stopped: true, status: run2.status });
  });
  app2.get("/api/eval/status/:id", (c4) => {
    const id = c4.req.param("id");
    const run2 = activeRuns.get(id ?? "");
    if (!run2) return c4.json({ error: "Run not found" }, 404);
    return c4.json({
      id: run2.id,
      status: run2.status,
      command: run2.command,
      started_at: run2.startedAt,
      finished_at: run2.finishedAt ?? null,
      exit_code: run2.exitCode ?? null,
      stdout: run2.stdout.slice(-1e4),
      stderr: run2.stderr.slice(-5e3)
    });
  });
  app2.get("/api/eval/runs", (c4) => {
    const runs = [...activeRuns.values()].map((r) => ({
      id: r.id,
      status: r.status,
      command: r.command,
      target: r.target,
      started_at: r.startedAt,
      finished_at: r.finishedAt ?? null,
      exit_code: r.exitCode ?? null
    }));
    runs.sort((a, b) => b.started_at.localeCompare(a.started_at));
    return c4.json({ runs });
  });
  app2.post("/api/eval/preview", async (c4) => {
    let body;
    try {
      body = await c4.req.json();
    } catch {
      return c4.json({ error: "Invalid JSON body" }, 400);
    }
    let metadata;
    try {
      metadata = normalizeRunMetadata(body);
    } catch (err2) {
      return c4.json({ error: err2.message }, 400);
    }
    const args = buildCliArgs(body, metadata.experiment);
    return c4.json({ command: buildCliPreview(args) });
  });
  app2.get("/api/projects/:projectId/eval/discover", async (c4) => {
    const cwd = getCwd(c4);
    try {
      const files = await discoverEvalFiles(cwd);
      return c4.json({
        eval_files: files.map((f) => ({
          path: f.path,
          relative_path: f.relativePath,
          category: f.category
        }))
      });
    } catch (err2) {
      return c4.json({ error: err2.message, eval_files: [] }, 500);
    }
  });
  app2.get("/api/projects/:projectId/eval/targets", async (c4) => {
    const cwd = getCwd(c4);
    try {
      const names = await discoverTargetsInProject(cwd);
      return c4.json({ targets: names });
    } catch (err2) {
      return c4.json({ error: err2.message, targets: [] }, 500);
    }
  });
  app2.post("/api/projects/:projectId/eval/run", async (c4) => {
    if (readOnly) {
      return c4.json({ error: "Dashboard is running in read-only mode" }, 403);
    }
    const cwd = getCwd(c4);
    let body;
    try {
      body = await c4.req.json();
    } catch {
      return c4.json({ error: "Invalid JSON body" }, 400);
    }
    if (!body.suite_filter?.trim() && (!body.test_ids || body.test_ids.length === 0)) {
      return c4.json({ error: "Provide suite_filter or test_ids" }, 400);
    }
    const resumeError = validateResumeOptions(body);
    if (resumeError) {
      return c4.json({ error: resumeError }, 400);
    }
    let metadata;
    try {
      metadata = normalizeRunMetadata(body);
    } catch (err2) {
      return c4.json({ error: err2.message }, 400);
    }
    const cliPaths = resolveCliPath(cwd);
    if (!cliPaths) {
      return c4.json({ error: "Cannot locate agentv CLI entry point" }, 500);
    }
    const args = buildCliArgs(body, metadata.experiment);
    const outputDir = body.output?.trim() ? path25.resolve(cwd, body.output.trim()) : buildDefaultRunDir(cwd, metadata.experiment);
    if (!body.output?.trim()) {
      args.push("--output", outputDir);
    }
    const command2 = buildCliPreview(args);
    const runId = generateRunId();
    const run2 = {
      id: runId,
      status: "starting",
      command: command2,
      target: body.target?.trim() || void 0,
      outputDir,
      startedAt: (/* @__PURE__ */ new Date()).toISOString(),
      stdout: "",
      stderr: ""
    };
    activeRuns.set(runId, run2);
    try {
      const child = spawn2(cliPaths.binPath, [...cliPaths.args, ...args], {
        cwd,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env },
        shell: process.platform === "win32"
      });
      run2.process = child;
      run2.status = "running";
      const logStream = openConsoleLogStream(outputDir);
      child.stdout?.on("data", (chunk) => {
        logStream?.write(chunk);
        run2.stdout += chunk.toString();
        if (run2.stdout.length > 1e5) run2.stdout = run2.stdout.slice(-8e4);
      });
      child.stderr?.on("data", (chunk) => {
        logStream?.write(chunk);
        run2.stderr += chunk.toString();
        if (run2.stderr.length > 1e5) run2.stderr = run2.stderr.slice(-8e4);
      });
      child.on("close", (code) => {
        run2.exitCode = code;
        run2.status = code === 0 ? "finished" : "failed";
        run2.finishedAt = (/* @__PURE__ */ new Date()).toISOString();
        run2.process = void 0;
        logStream?.end();
        pruneFinishedRuns();
      });
      child.on("error", (err2) => {
        run2.status = "failed";
        run2.stderr += `
Process error: ${err2.message}`;
        run2.finishedAt = (/* @__PURE__ */ new Date()).toISOString();
        run2.process = void 0;
        logStream?.write(`
Process error: ${err2.message}
`);
        logStream?.end();
      });
      return c4.json({ id: runId, status: run2.status, command: command2 }, 202);
    } catch (err2) {
      run2.status = "failed";
      run2.stderr = err2.message;
      run2.finishedAt = (/* @__PURE__ */ new Date()).toISOString();
      return c4.json({ error: err2.message }, 500);
    }
  });
  app2.post("/api/projects/:projectId/eval/run/:id/stop", (c4) => {
    if (readOnly) {
      return c4.json({ error: "Dashboard is running in read-only mode" }, 403);
    }
    const id = c4.req.param("id");
    const run2 = activeRuns.get(id ?? "");
    if (!run2) return c4.json({ error: "Run not found" }, 404);
    if (run2.status === "finished" || run2.status === "failed" || !run2.process) {
      return c4.json({ stopped: false, reason: "already_terminal", status: run2.status });
    }
    try {
      run2.process.kill("SIGTERM");
    } catch (err2) {
      return c4.json({ error: err2.message }, 500);
    }
    return c4.json({ stopped: true, status: run2.status });
  });
  app2.get("/api/projects/:projectId/eval/status/:id", (c4) => {
    const id = c4.req.param("id");
    const run2 = activeRuns.get(id ?? "");
    if (!run2) return c4.json({ error: "Run not found" }, 404);
    return c4.json({
      id: run2.id,
      status: run2.status,
      command: run2.command,
      started_at: run2.startedAt,
      finished_at: run2.finishedAt ?? null,
      exit_code: run2.exitCode ?? null,
      stdout: run2.stdout.slice(-1e4),
      stderr: run2.stderr.slice(-5e3)
    });
  });
  app2.get("/api/projects/:projectId/eval/runs", (c4) => {
    const runs = [...activeRuns.values()].map((r) => ({
      id: r.id,
      status: r.status,
      command: r.command,
      target: r.target,
      started_at: r.startedAt,
      finished_at: r.finishedAt ?? null,
      exit_code: r.exitCode ?? null
    }));
    runs.sort((a, b) => b.started_at.localeCompare(a.started_at));
    return c4.json({ runs });
  });
  app2.post("/api/projects/:projectId/eval/preview", async (c4) => {
    let body;
    try {
      body = await c4.req.json();
    } catch {
      return c4.json({ error: "Invalid JSON body" }, 400);
    }
    let metadata;
    try {
      metadata = normalizeRunMetadata(body);
    } catch (err2) {
      return c4.json({ error: err2.message }, 400);
    }
    const args = buildCliArgs(body, metadata.experiment);
    return c4.json({ command: buildCliPreview(args) });
  });
}

// src/commands/results/studio-config.ts
import { existsSync as existsSync16, mkdirSync as mkdirSync5, readFileSync as readFileSync13, writeFileSync as writeFileSync5 } from "node:fs";
import path26 from "node:path";
import { stringify as stringifyYaml3 } from "yaml";
var DEFAULTS = {
  threshold: DEFAULT_THRESHOLD,
  appName: "AgentV"
};
function loadStudioConfig(agentvDir) {
  const localConfigPath = path26.join(agentvDir, "config.yaml");
  const globalConfigPath = path26.join(getAgentvConfigDir(), "config.yaml");
  const localConfig = loadParsedConfigPair(localConfigPath);
  const globalConfig = path26.resolve(path26.dirname(globalConfigPath)) === path26.resolve(path26.dirname(localConfigPath)) ? void 0 : loadParsedConfigPair(globalConfigPath);
  const threshold = [
    readThreshold(localConfig?.dashboard),
    readThreshold(localConfig?.studio),
    typeof localConfig?.pass_threshold === "number" ? localConfig.pass_threshold : void 0,
    readThreshold(globalConfig?.dashboard),
    readThreshold(globalConfig?.studio),
    typeof globalConfig?.pass_threshold === "number" ? globalConfig.pass_threshold : void 0,
    DEFAULTS.threshold
  ].find((value) => value !== void 0);
  return {
    threshold: Math.min(1, Math.max(0, threshold)),
    appName: readAppName(localConfig?.dashboard) ?? readAppName(globalConfig?.dashboard) ?? DEFAULTS.appName
  };
}
function loadParsedConfig(configPath) {
  if (!existsSync16(configPath)) return void 0;
  const raw = readFileSync13(configPath, "utf-8");
  const parsed = parseYamlValue(raw);
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return void 0;
  return parsed;
}
function loadParsedConfigPair(configPath) {
  const base = loadParsedConfig(configPath);
  const local = loadParsedConfig(getLocalConfigPath(configPath));
  if (base && local) return mergeConfigObjects(base, local);
  return local ?? base;
}
function readThreshold(section) {
  if (!section || typeof section !== "object" || Array.isArray(section)) return void 0;
  const values = section;
  if (typeof values.threshold === "number") return values.threshold;
  if (typeof values.pass_threshold === "number") return values.pass_threshold;
  return void 0;
}
function readAppName(section) {
  if (!section || typeof section !== "object" || Array.isArray(section)) return void 0;
  const value = section.app_name;
  if (typeof value !== "string") return void 0;
  const trimmed = value.trim();
  return trimmed.length > 0 ? trimmed : void 0;
}
function saveStudioConfig(agentvDir, config) {
  if (!existsSync16(agentvDir)) {
    mkdirSync5(agentvDir, { recursive: true });
  }
  const configPath = path26.join(agentvDir, "config.yaml");
  let existing = {};
  if (existsSync16(configPath)) {
    const raw = readFileSync13(configPath, "utf-8");
    const parsed = parseYamlValue(raw);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      existing = parsed;
    }
  }
  const { pass_threshold: _, ...rest } = existing;
  existing = rest;
  const existingDashboard = existing.dashboard;
  const existingStudio = existing.studio;
  const dashboardRest = existingDashboard && typeof existingDashboard === "object" && !Array.isArray(existingDashboard) ? (({ pass_threshold: _2, ...rest2 }) => rest2)(existingDashboard) : {};
  const studioRest = existingStudio && typeof existingStudio === "object" && !Array.isArray(existingStudio) ? (({ threshold: _2, pass_threshold: __, ...rest2 }) => rest2)(
    existingStudio
  ) : {};
  const { studio: _legacyStudio, ...withoutStudio } = existing;
  existing = {
    ...withoutStudio,
    dashboard: {
      ...studioRest,
      ...dashboardRest,
      threshold: config.threshold,
      app_name: config.appName
    }
  };
  const yamlStr = stringifyYaml3(existing);
  writeFileSync5(configPath, yamlStr, "utf-8");
}

// src/commands/results/serve.ts
var DIRECT_DASHBOARD_SOURCE_GUIDANCE = [
  "Dashboard reads configured project run sources only.",
  "Run it from a project root, or pass --dir so Dashboard uses <project>/.agentv/results/:",
  "  agentv dashboard --dir <project-dir>",
  "To browse external results, configure results.repo.remote or results.repo.path in config YAML.",
  `For a one-off run bundle, use: agentv results report <run-workspace-or-${RESULT_INDEX_FILENAME2}>`
].join("\n");
function unsupportedDashboardSourceError(source, cwd) {
  const resolved = path27.isAbsolute(source) ? source : path27.resolve(cwd, source);
  return new Error(
    `Unsupported Dashboard source: ${resolved}
${DIRECT_DASHBOARD_SOURCE_GUIDANCE}`
  );
}
async function resolveSourceFile2(source, cwd) {
  if (source) {
    throw unsupportedDashboardSourceError(source, cwd);
  }
  const cache = await loadRunCache(cwd);
  const cachedFile = cache ? resolveRunCacheFile(cache) : "";
  if (cachedFile && existsSync17(cachedFile) && relativeRunPathFromCwd(cwd, path27.dirname(cachedFile))) {
    return cachedFile;
  }
  const metas = listResultFiles(cwd, 10);
  if (metas.length === 0) {
    throw new Error(
      "No run workspaces found in .agentv/results/\nRun an evaluation first: agentv eval <eval-file>"
    );
  }
  if (metas.length > 1) {
    console.log("Available run workspaces:");
    for (const m of metas) {
      console.log(`  ${m.path}`);
    }
    console.log(`
Serving most recent: ${metas[0].path}
`);
  }
  return metas[0].path;
}
function resolveDashboardMode(_projectCount, options) {
  if (options.single === true) {
    return { projectDashboard: false };
  }
  return { projectDashboard: true };
}
function bootstrapCurrentProject(cwd, options) {
  if (options.single === true) return {};
  if (!existsSync17(path27.join(cwd, ".agentv"))) return {};
  const entry = addProject(cwd);
  touchProject(entry.id);
  return { currentProjectId: entry.id };
}
function buildFileTree(dirPath, relativeTo) {
  if (!existsSync17(dirPath) || !statSync6(dirPath).isDirectory()) {
    return [];
  }
  const entries2 = readdirSync4(dirPath, { withFileTypes: true });
  return entries2.sort((a, b) => {
    if (a.isDirectory() !== b.isDirectory()) return a.isDirectory() ? -1 : 1;
    return a.name.localeCompare(b.name);
  }).map((entry) => {
    const fullPath = path27.join(dirPath, entry.name);
    const relPath = path27.relative(relativeTo, fullPath);
    if (entry.isDirectory()) {
      return {
        name: entry.name,
        path: relPath,
        type: "dir",
        children: buildFileTree(fullPath, relativeTo)
      };
    }
    return {
      name: entry.name,
      path: relPath.split(path27.sep).join("/"),
      type: "file",
      storage: "local"
    };
  });
}
function flattenFileTree(nodes) {
  const files = [];
  for (const node of nodes) {
    if (node.type === "file") {
      files.push(node);
    } else if (node.children) {
      files.push(...flattenFileTree(node.children));
    }
  }
  return files;
}
function ensureCatalogFileNode(root, entry, rootPrefix) {
  const fullPath = entry.displayPath;
  const nestPath = rootPrefix && fullPath.startsWith(`${rootPrefix}/`) ? fullPath.slice(rootPrefix.length + 1) : fullPath;
  const usePrefix = nestPath !== fullPath ? rootPrefix : void 0;
  const segments = nestPath.split("/").filter(Boolean);
  if (segments.length === 0) return;
  let siblings = root;
  let nestedPath = "";
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i];
    if (!segment) continue;
    nestedPath = nestedPath ? `${nestedPath}/${segment}` : segment;
    const fullNodePath = usePrefix ? `${usePrefix}/${nestedPath}` : nestedPath;
    const isFile = i === segments.length - 1;
    let node = siblings.find((candidate) => candidate.name === segment);
    if (!node) {
      node = {
        name: segment,
        path: fullNodePath,
        type: isFile ? "file" : "dir",
        ...isFile ? {
          kind: entry.kind,
          storage: entry.storage,
          ...entry.ref && { ref: entry.ref },
          ...entry.key && { key: entry.key },
          ...entry.sha256 && { sha256: entry.sha256 },
          ...entry.mediaType && { media_type: entry.mediaType }
        } : { children: [] }
      };
      siblings.push(node);
      siblings.sort((a, b) => {
        if (a.type !== b.type) return a.type === "dir" ? -1 : 1;
        return a.name.localeCompare(b.name);
      });
    }
    if (isFile) {
      node.kind = entry.kind;
      node.storage = entry.storage;
      if (entry.ref) node.ref = entry.ref;
      if (entry.key) node.key = entry.key;
      if (entry.sha256) node.sha256 = entry.sha256;
      if (entry.mediaType) node.media_type = entry.mediaType;
      return;
    }
    node.children ??= [];
    siblings = node.children;
  }
}
function overlayCatalogFileNodes(files, catalog, rootPrefix) {
  const localFilePaths = new Set(flattenFileTree(files).map((file) => file.path));
  for (const entry of catalog) {
    if (entry.storage === "git" || !localFilePaths.has(entry.displayPath)) {
      ensureCatalogFileNode(files, entry, rootPrefix);
    }
  }
  return files;
}
function inferLanguage(filePath) {
  const ext = path27.extname(filePath).toLowerCase();
  const langMap = {
    ".json": "json",
    ".jsonl": "json",
    ".ts": "typescript",
    ".tsx": "typescript",
    ".js": "javascript",
    ".jsx": "javascript",
    ".md": "markdown",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".log": "plaintext",
    ".txt": "plaintext",
    ".py": "python",
    ".sh": "shell",
    ".bash": "shell",
    ".css": "css",
    ".html": "html",
    ".xml": "xml",
    ".svg": "xml",
    ".toml": "toml",
    ".diff": "diff",
    ".patch": "diff"
  };
  return langMap[ext] ?? "plaintext";
}
function inferRawContentType(filePath) {
  const ext = path27.extname(filePath).toLowerCase();
  if (ext === ".json") return "application/json; charset=utf-8";
  if (ext === ".jsonl") return "text/plain; charset=utf-8";
  if (ext === ".md") return "text/markdown; charset=utf-8";
  return "text/plain; charset=utf-8";
}
function contentDispositionFilename(filePath) {
  return path27.basename(filePath).replace(/["\\\r\n]/g, "_");
}
function isRecord3(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function nonEmptyString(value) {
  return typeof value === "string" && value.trim() ? value.trim() : void 0;
}
function artifactPointerPath(pointer) {
  if (typeof pointer === "string") return nonEmptyString(pointer);
  if (!isRecord3(pointer)) return void 0;
  return nonEmptyString(pointer.path) ?? nonEmptyString(pointer.artifact_path) ?? nonEmptyString(pointer.relative_path);
}
function artifactPointerDescription(pointer) {
  if (typeof pointer === "string") return pointer;
  if (!isRecord3(pointer)) return void 0;
  const ref = nonEmptyString(pointer.ref);
  const storage = nonEmptyString(pointer.storage);
  const uri = nonEmptyString(pointer.uri) ?? nonEmptyString(pointer.href);
  const pointerPath = artifactPointerPath(pointer);
  const parts = [
    ref ? `ref ${ref}` : void 0,
    storage ? `storage ${storage}` : void 0,
    uri ? `uri ${uri}` : void 0,
    pointerPath ? `path ${pointerPath}` : void 0
  ].filter((part) => part !== void 0);
  return parts.length > 0 ? parts.join(", ") : void 0;
}
function artifactPointerRef(pointer) {
  return isRecord3(pointer) ? nonEmptyString(pointer.ref) : void 0;
}
function artifactPointerKey(pointer) {
  return isRecord3(pointer) ? nonEmptyString(pointer.key) : void 0;
}
function artifactPointerSha256(pointer) {
  return isRecord3(pointer) ? nonEmptyString(pointer.sha256) : void 0;
}
function artifactPointerMediaType(pointer) {
  return isRecord3(pointer) ? nonEmptyString(pointer.media_type) : void 0;
}
function artifactPointerObjectVersion(pointer) {
  return isRecord3(pointer) ? nonEmptyString(pointer.object_version) : void 0;
}
function resolveRecordArtifactPointer(record, kind) {
  const legacyArtifactPointers = record.artifact_pointers;
  const pointer = kind === "transcript" ? record.artifact_pointers?.transcript : kind === "trace" ? legacyArtifactPointers?.trace : void 0;
  const pointerPath = artifactPointerPath(pointer);
  const description = artifactPointerDescription(pointer);
  const ref = artifactPointerRef(pointer);
  const key = artifactPointerKey(pointer);
  const sha256 = artifactPointerSha256(pointer);
  const mediaType = artifactPointerMediaType(pointer);
  const objectVersion = artifactPointerObjectVersion(pointer);
  if ((kind === "transcript" || kind === "trace") && pointerPath) {
    return {
      path: pointerPath,
      description,
      ref,
      ...key && { key },
      ...sha256 && { sha256 },
      ...mediaType && { mediaType },
      ...objectVersion && { objectVersion }
    };
  }
  const directPath = kind === "transcript" ? record.transcript_path : kind === "trace" ? record.trace_path : record.answer_path ?? record.output_path;
  if (directPath) {
    return { path: directPath, description: directPath };
  }
  if (pointerPath) {
    return {
      path: pointerPath,
      description,
      ref,
      ...key && { key },
      ...sha256 && { sha256 },
      ...mediaType && { mediaType },
      ...objectVersion && { objectVersion }
    };
  }
  if (pointer) {
    return {
      description,
      ref,
      ...key && { key },
      ...sha256 && { sha256 },
      ...mediaType && { mediaType },
      ...objectVersion && { objectVersion },
      unsupportedReason: description ? `${kind} artifact pointer does not include a local path (${description}).` : `${kind} artifact pointer does not include a local path.`
    };
  }
  return {};
}
function resolveRunArtifactPath(baseDir, relativePath) {
  const absolutePath = path27.resolve(baseDir, relativePath);
  const resolvedBase = path27.resolve(baseDir);
  if (!isPathInsideDirectory(resolvedBase, absolutePath)) {
    return { error: "Artifact path is outside the run workspace." };
  }
  return { absolutePath };
}
function runWorkspaceDirFromManifestPath(manifestPath) {
  const manifestDir = path27.dirname(manifestPath);
  return path27.basename(manifestDir) === ".internal" ? path27.dirname(manifestDir) : manifestDir;
}
function isPathInsideDirectory(baseDir, candidatePath) {
  const relative3 = path27.relative(baseDir, candidatePath);
  return relative3 === "" || !!relative3 && !relative3.startsWith("..") && !path27.isAbsolute(relative3);
}
function resolveReadableRunArtifactFile(baseDir, relativePath) {
  const resolved = resolveRunArtifactPath(baseDir, relativePath);
  if (!resolved.absolutePath) return { error: resolved.error };
  let realBase;
  let realArtifact;
  try {
    realBase = realpathSync(baseDir);
    realArtifact = realpathSync(resolved.absolutePath);
  } catch {
    return {};
  }
  if (!isPathInsideDirectory(realBase, realArtifact)) {
    return { error: "Artifact path is outside the run workspace." };
  }
  try {
    if (!statSync6(realArtifact).isFile()) {
      return {};
    }
  } catch {
    return {};
  }
  return { absolutePath: realArtifact };
}
function normalizeArtifactRelativePath(relativePath) {
  const normalized = relativePath.split(path27.sep).join("/");
  const segments = normalized.split("/").filter(Boolean);
  if (segments.length === 0 || normalized.startsWith("/") || segments.some((segment) => segment === "..")) {
    return void 0;
  }
  return segments.join("/");
}
function requestedResultDir(c4) {
  const raw = c4.req.query("result_dir")?.trim();
  if (!raw) {
    return {};
  }
  const normalized = normalizeArtifactRelativePath(raw);
  if (!normalized) {
    return { error: "Invalid result_dir" };
  }
  return { value: normalized };
}
function manifestRecordSelection(records, evalId, resultDir) {
  return records.map((record, index) => ({ record, index })).find(({ record }) => {
    if (record.test_id !== evalId) {
      return false;
    }
    if (!resultDir) {
      return true;
    }
    return normalizeArtifactRelativePath(record.result_dir ?? "") === resultDir;
  });
}
function relativeRunPathFromNormalizedManifestPath(manifestPath) {
  const parts = manifestPath.split("/").filter(Boolean);
  const manifestName = parts.at(-1);
  if (!manifestName || !isRunManifestPath(manifestName)) {
    return void 0;
  }
  const manifestDirParts = parts.slice(0, -1);
  if (manifestDirParts.at(-1) === ".internal") {
    manifestDirParts.pop();
  }
  if (manifestDirParts.length === 0 || manifestDirParts[0]?.startsWith(".")) {
    return void 0;
  }
  const runParts = manifestDirParts;
  return runParts.length > 0 ? runParts.join("/") : void 0;
}
function relativeRunPathFromManifestPath(manifestPath) {
  return relativeRunPathFromNormalizedManifestPath(manifestPath.split(path27.sep).join("/"));
}
function relativeRunPathFromManifest(repoDir, manifestPath) {
  const relativeManifestPath = path27.relative(repoDir, manifestPath).split(path27.sep).join("/");
  if (relativeManifestPath.length === 0 || relativeManifestPath === manifestPath || relativeManifestPath.startsWith("../")) {
    return void 0;
  }
  return relativeRunPathFromNormalizedManifestPath(relativeManifestPath);
}
function sidecarArtifactKeyForPointer(repoDir, manifestPath, artifact) {
  const publishedKey = artifact.key ? normalizeArtifactRelativePath(artifact.key) : void 0;
  if (publishedKey) {
    return publishedKey;
  }
  if (!artifact.path) {
    return publishedKey;
  }
  const relativeArtifactPath = normalizeArtifactRelativePath(artifact.path);
  const relativeRunPath = relativeRunPathFromManifest(repoDir, manifestPath);
  if (!relativeArtifactPath || !relativeRunPath) {
    return void 0;
  }
  return [relativeRunPath, relativeArtifactPath].join("/");
}
async function readSidecarArtifactText(searchDir, projectId, meta, artifact) {
  if (artifact.ref !== AGENTV_RESULTS_ARTIFACTS_REF) {
    return void 0;
  }
  const config = await loadNormalizedResultsConfig(searchDir, projectId);
  if (!config) {
    return void 0;
  }
  const key = sidecarArtifactKeyForPointer(config.path, meta.path, artifact);
  if (!key) {
    return void 0;
  }
  const bytes = await readGitResultArtifact({
    repoDir: config.path,
    key,
    ref: AGENTV_RESULTS_ARTIFACTS_REF,
    remote: config.remote,
    ...artifact.sha256 && { sha256: artifact.sha256 },
    ...artifact.objectVersion && { objectVersion: artifact.objectVersion }
  });
  return bytes?.toString("utf8");
}
function addDirectArtifactCatalogEntry(entries2, seen, displayPath, kind) {
  const normalized = displayPath ? normalizeArtifactRelativePath(displayPath) : void 0;
  if (!normalized || seen.has(normalized)) return;
  seen.add(normalized);
  entries2.push({
    displayPath: normalized,
    kind,
    storage: "local",
    path: normalized
  });
}
function addPointerArtifactCatalogEntry(entries2, seen, artifact, kind, runPath) {
  const artifactPath = artifact.path ? normalizeArtifactRelativePath(artifact.path) : void 0;
  const displayPath = artifactPath ?? displayPathFromArtifactKey(artifact.key, runPath);
  if (!displayPath || seen.has(displayPath)) return;
  seen.add(displayPath);
  entries2.push({
    displayPath,
    kind,
    storage: artifact.ref ? "git" : "local",
    ...artifactPath && { path: artifactPath },
    ...artifact.ref && { ref: artifact.ref },
    ...artifact.key && { key: artifact.key },
    ...artifact.sha256 && { sha256: artifact.sha256 },
    ...artifact.mediaType && { mediaType: artifact.mediaType },
    ...artifact.objectVersion && { objectVersion: artifact.objectVersion }
  });
}
function displayPathFromArtifactKey(key, runPath) {
  const normalizedKey = key ? normalizeArtifactRelativePath(key) : void 0;
  if (!normalizedKey) return void 0;
  if (!runPath) return normalizedKey;
  const runPrefix = `${runPath}/`;
  if (!normalizedKey.startsWith(runPrefix)) return normalizedKey;
  return normalizeArtifactRelativePath(normalizedKey.slice(runPrefix.length)) ?? normalizedKey;
}
function addTrialRunCatalogEntries(entries2, seen, record) {
  const resultDir = record.result_dir ? normalizeArtifactRelativePath(record.result_dir) : void 0;
  if (!resultDir) return;
  for (const trial of record.samples ?? record.attempts ?? record.trials ?? []) {
    const rawPath = typeof trial.sample_path === "string" ? trial.sample_path : typeof trial.attempt_path === "string" ? trial.attempt_path : trial.run_path;
    const runPath = rawPath ? normalizeArtifactRelativePath(rawPath) : void 0;
    if (!runPath) continue;
    const runDir = path27.posix.join(resultDir, runPath);
    addDirectArtifactCatalogEntry(
      entries2,
      seen,
      path27.posix.join(runDir, "result.json"),
      "artifact"
    );
    addDirectArtifactCatalogEntry(
      entries2,
      seen,
      path27.posix.join(runDir, "grading.json"),
      "artifact"
    );
    addDirectArtifactCatalogEntry(
      entries2,
      seen,
      path27.posix.join(runDir, "metrics.json"),
      "artifact"
    );
  }
}
function buildResultArtifactCatalog(record, options) {
  const entries2 = [];
  const seen = /* @__PURE__ */ new Set();
  const transcript = resolveRecordArtifactPointer(record, "transcript");
  const trace = resolveRecordArtifactPointer(record, "trace");
  const answer = resolveRecordArtifactPointer(record, "answer");
  addPointerArtifactCatalogEntry(entries2, seen, transcript, "transcript", options?.runPath);
  addPointerArtifactCatalogEntry(entries2, seen, trace, "trace", options?.runPath);
  addPointerArtifactCatalogEntry(entries2, seen, answer, "answer", options?.runPath);
  addDirectArtifactCatalogEntry(entries2, seen, record.summary_path, "artifact");
  addDirectArtifactCatalogEntry(entries2, seen, record.grading_path, "artifact");
  addDirectArtifactCatalogEntry(entries2, seen, record.metrics_path, "artifact");
  addDirectArtifactCatalogEntry(entries2, seen, record.timing_path, "artifact");
  addDirectArtifactCatalogEntry(entries2, seen, record.input_path, "artifact");
  addDirectArtifactCatalogEntry(entries2, seen, record.output_path, "artifact");
  addDirectArtifactCatalogEntry(entries2, seen, record.response_path, "artifact");
  addDirectArtifactCatalogEntry(entries2, seen, record.answer_path, "answer");
  addDirectArtifactCatalogEntry(entries2, seen, record.transcript_path, "transcript");
  addDirectArtifactCatalogEntry(entries2, seen, record.transcript_raw_path, "artifact");
  addDirectArtifactCatalogEntry(entries2, seen, record.trace_path, "trace");
  addDirectArtifactCatalogEntry(entries2, seen, record.eval_path, "artifact");
  addDirectArtifactCatalogEntry(entries2, seen, record.targets_path, "artifact");
  addTrialRunCatalogEntries(entries2, seen, record);
  return entries2;
}
function resultArtifactTreeRootPaths(record, catalog) {
  return [
    ...catalog.filter((entry) => entry.storage === "local").map((entry) => entry.displayPath),
    record.test_dir,
    record.task_dir,
    record.files_path,
    record.graders_path
  ].filter((p, index, all) => !!p && all.indexOf(p) === index);
}
function artifactTreeCommonDir(record, catalog) {
  const knownPaths = resultArtifactTreeRootPaths(record, catalog);
  if (knownPaths.length === 0) return void 0;
  const resultDirs = knownPaths.map((p) => path27.dirname(p));
  let commonDir = resultDirs[0];
  for (const dir of resultDirs) {
    while (!dir.startsWith(commonDir)) {
      const parent = path27.dirname(commonDir);
      if (parent === commonDir) break;
      commonDir = parent;
    }
  }
  return commonDir === "." || commonDir === "" ? void 0 : commonDir;
}
function buildLocalResultArtifactTree(baseDir, record, catalog) {
  const commonDir = artifactTreeCommonDir(record, catalog);
  if (commonDir === void 0) {
    return resultArtifactTreeRootPaths(record, catalog).length === 0 ? [] : buildFileTree(baseDir, baseDir);
  }
  return buildFileTree(path27.join(baseDir, commonDir), baseDir);
}
function catalogEntryForDiscoveredLocalFile(nodes, displayPath) {
  const normalized = normalizeArtifactRelativePath(displayPath);
  if (!normalized) return void 0;
  const file = flattenFileTree(nodes).find((node) => node.path === normalized);
  return file ? { displayPath: normalized, kind: "artifact", storage: "local", path: normalized } : void 0;
}
function findArtifactCatalogEntry(catalog, displayPath) {
  const normalized = normalizeArtifactRelativePath(displayPath);
  return normalized ? catalog.find((entry) => normalizeArtifactRelativePath(entry.displayPath) === normalized) : void 0;
}
function findPointerArtifactCatalogEntry(catalog, artifact, kind, runPath) {
  const displayPath = (artifact.path ? normalizeArtifactRelativePath(artifact.path) : void 0) ?? displayPathFromArtifactKey(artifact.key, runPath);
  if (displayPath) {
    const entry = findArtifactCatalogEntry(catalog, displayPath);
    if (entry) return entry;
  }
  return catalog.find(
    (entry) => entry.kind === kind && artifact.key !== void 0 && entry.key !== void 0 && entry.key === artifact.key
  );
}
async function readArtifactCatalogEntryText(searchDir, projectId, meta, entry) {
  const baseDir = runWorkspaceDirFromManifestPath(meta.path);
  if (entry.storage === "local") {
    const resolved = resolveReadableRunArtifactFile(baseDir, entry.displayPath);
    if (resolved.error) return { error: resolved.error };
    if (!resolved.absolutePath) return {};
    return { content: readFileSync14(resolved.absolutePath, "utf8") };
  }
  const localResolved = resolveReadableRunArtifactFile(baseDir, entry.displayPath);
  if (localResolved.error) return { error: localResolved.error };
  if (localResolved.absolutePath) {
    return { content: readFileSync14(localResolved.absolutePath, "utf8") };
  }
  if (entry.ref !== AGENTV_RESULTS_ARTIFACTS_REF) {
    return {};
  }
  const content = await readSidecarArtifactText(searchDir, projectId, meta, {
    path: entry.path ?? entry.displayPath,
    ref: entry.ref,
    ...entry.key && { key: entry.key },
    ...entry.sha256 && { sha256: entry.sha256 },
    ...entry.objectVersion && { objectVersion: entry.objectVersion }
  });
  return { content };
}
function readableLocalCatalogEntry(meta, entry) {
  if (!entry || entry.storage !== "local") return entry;
  const baseDir = runWorkspaceDirFromManifestPath(meta.path);
  const resolved = resolveReadableRunArtifactFile(baseDir, entry.displayPath);
  return resolved.absolutePath ? entry : void 0;
}
function artifactFileContentResponse(c4, filePath, fileContent) {
  if (c4.req.query("raw") === "1" || c4.req.query("download") === "1") {
    c4.header("Content-Type", inferRawContentType(filePath));
    if (c4.req.query("download") === "1") {
      c4.header(
        "Content-Disposition",
        `attachment; filename="${contentDispositionFilename(filePath)}"`
      );
    }
    return c4.body(fileContent);
  }
  const language = inferLanguage(filePath);
  return c4.json({ content: fileContent, language });
}
function missingTranscriptMessage() {
  return [
    "This result does not include canonical transcript.json metadata.",
    "Dashboard does not parse response.md or markdown transcripts for this view."
  ].join(" ");
}
var TRACE_SESSION_ARTIFACT_RESPONSE_SCHEMA_VERSION = "agentv.dashboard.trace_artifact.v1";
function traceSessionArtifactResponse(response) {
  return {
    schema_version: TRACE_SESSION_ARTIFACT_RESPONSE_SCHEMA_VERSION,
    ...response
  };
}
function missingTraceMessage() {
  return [
    "This result does not include legacy trace artifact metadata.",
    "Dashboard transcript inspection uses transcript.json for current run bundles."
  ].join(" ");
}
function parseTraceArtifactJson(content) {
  try {
    return { value: JSON.parse(content) };
  } catch (error) {
    return {
      message: `Trace artifact is not valid JSON: ${error instanceof Error ? error.message : String(error)}`
    };
  }
}
function stripHeavyFields(results) {
  return results.map((r) => {
    const {
      requests,
      trace,
      metadata: rawMetadata,
      ...rest
    } = r;
    const metadata = omitExternalTraceMetadataKeys(rawMetadata);
    const toolCalls = trace?.toolCalls && Object.keys(trace.toolCalls).length > 0 ? trace.toolCalls : void 0;
    const graderDurationMs = (r.scores ?? []).reduce((sum, s) => sum + (s.durationMs ?? 0), 0);
    return {
      ...rest,
      ...metadata && { metadata },
      ...toolCalls && { _toolCalls: toolCalls },
      ...graderDurationMs > 0 && { _graderDurationMs: graderDurationMs }
    };
  });
}
function readArtifactJsonObject(baseDir, relativePath) {
  if (!relativePath) return void 0;
  const resolved = resolveReadableRunArtifactFile(baseDir, relativePath);
  if (!resolved.absolutePath) return void 0;
  try {
    const parsed = JSON.parse(readFileSync14(resolved.absolutePath, "utf8"));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : void 0;
  } catch {
    return void 0;
  }
}
function numberField(record, key) {
  const value = record?.[key];
  return typeof value === "number" && Number.isFinite(value) ? value : void 0;
}
function objectField(record, key) {
  const value = record?.[key];
  return value && typeof value === "object" && !Array.isArray(value) ? value : void 0;
}
function caseTrialArtifactPath(resultDir, runPath, filePath) {
  if (!resultDir || !runPath) return void 0;
  return path27.posix.join(resultDir, runPath, filePath);
}
function buildRepeatTrialReadModels(baseDir, record) {
  const samples = record.samples ?? record.attempts ?? record.trials;
  if (!samples || samples.length === 0) return void 0;
  const resultDir = record.result_dir ? normalizeArtifactRelativePath(record.result_dir) : void 0;
  return samples.map((trial) => {
    const rawPath = typeof trial.sample_path === "string" ? trial.sample_path : typeof trial.attempt_path === "string" ? trial.attempt_path : trial.run_path;
    const runPath = rawPath ? normalizeArtifactRelativePath(rawPath) : void 0;
    const metricsPath = caseTrialArtifactPath(resultDir, runPath, "metrics.json");
    const timingPath = caseTrialArtifactPath(resultDir, runPath, "timing.json");
    const gradingPath = caseTrialArtifactPath(resultDir, runPath, "grading.json");
    const transcriptPath = caseTrialArtifactPath(resultDir, runPath, "transcript.json");
    const transcriptRawPath = caseTrialArtifactPath(resultDir, runPath, "transcript-raw.jsonl");
    const answerPath = caseTrialArtifactPath(resultDir, runPath, "outputs/answer.md");
    const resultPath = caseTrialArtifactPath(resultDir, runPath, "result.json");
    const runResult = readArtifactJsonObject(baseDir, resultPath);
    const metrics = normalizeMetricsArtifactWire(readArtifactJsonObject(baseDir, metricsPath));
    const timing = readArtifactJsonObject(baseDir, timingPath);
    const toolCalls = objectField(metrics, "tool_calls");
    const tokenUsage = objectField(metrics, "tokens") ?? objectField(timing, "token_usage");
    const duration = objectField(metrics, "duration");
    const cost = objectField(metrics, "cost");
    const transcriptSummary = objectField(trial, "transcript_summary") ?? objectField(runResult, "transcript_summary");
    return {
      ...trial,
      ...numberField(duration, "total_ms") !== void 0 && {
        duration_ms: numberField(duration, "total_ms")
      },
      ...numberField(duration, "total_ms") === void 0 && numberField(timing, "duration_ms") !== void 0 && {
        duration_ms: numberField(timing, "duration_ms")
      },
      ...numberField(tokenUsage, "total") !== void 0 && {
        total_tokens: numberField(tokenUsage, "total")
      },
      ...numberField(tokenUsage, "total") === void 0 && numberField(timing, "total_tokens") !== void 0 && {
        total_tokens: numberField(timing, "total_tokens")
      },
      ...numberField(cost, "usd") !== void 0 && {
        cost_usd: numberField(cost, "usd")
      },
      ...numberField(cost, "usd") === void 0 && numberField(timing, "cost_usd") !== void 0 && {
        cost_usd: numberField(timing, "cost_usd")
      },
      ...tokenUsage && { token_usage: tokenUsage },
      ...numberField(metrics, "total_tool_calls") !== void 0 && {
        total_tool_calls: numberField(metrics, "total_tool_calls")
      },
      ...toolCalls && { tool_calls: toolCalls },
      ...transcriptSummary && { transcript_summary: transcriptSummary },
      ...metricsPath && { metrics_path: metricsPath },
      ...timing && timingPath && { timing_path: timingPath },
      ...gradingPath && { grading_path: gradingPath },
      ...transcriptPath && { transcript_path: transcriptPath },
      ...transcriptRawPath && { transcript_raw_path: transcriptRawPath },
      ...answerPath && { answer_path: answerPath }
    };
  });
}
function attachRunDetailReadModelFields(results, records, baseDir) {
  return results.map((result, index) => {
    const record = records[index];
    if (!record) return result;
    const samples = buildRepeatTrialReadModels(baseDir, record);
    return {
      ...result,
      ...record.aggregation && { aggregation: record.aggregation },
      ...record.eval_path && { eval_path: record.eval_path },
      ...record.result_dir && { result_dir: record.result_dir },
      ...record.test_dir && { test_dir: record.test_dir },
      ...record.summary_path && { summary_path: record.summary_path },
      ...record.grading_path && { grading_path: record.grading_path },
      ...record.timing_path && { timing_path: record.timing_path },
      ...record.metrics_path && { metrics_path: record.metrics_path },
      ...record.transcript_path && { transcript_path: record.transcript_path },
      ...record.transcript_raw_path && { transcript_raw_path: record.transcript_raw_path },
      ...record.output_path && { output_path: record.output_path },
      ...record.answer_path && { answer_path: record.answer_path },
      ...samples && { samples }
    };
  });
}
function inferExperimentFromRunId(runId) {
  const separatorIndex = runId.lastIndexOf("::");
  if (separatorIndex === -1) {
    return void 0;
  }
  const experiment = runId.slice(0, separatorIndex).trim();
  if (!experiment || experiment === "default") {
    return void 0;
  }
  return experiment;
}
async function ensureRunReadable(searchDir, meta, projectId) {
  await ensureRemoteRunAvailable(searchDir, meta, projectId);
}
async function loadManifestResultsForMeta(searchDir, meta, projectId) {
  await ensureRunReadable(searchDir, meta, projectId);
  return loadManifestResults(meta.path, { hydrateTranscriptTrace: false });
}
async function loadLightweightResultsForMeta(searchDir, meta, projectId) {
  await ensureRunReadable(searchDir, meta, projectId);
  return loadLightweightResults(meta.path);
}
async function parseManifestForMeta(searchDir, meta, projectId) {
  await ensureRunReadable(searchDir, meta, projectId);
  return parseResultManifest(readFileSync14(meta.path, "utf8"));
}
var DEFAULT_RUN_PAGE_LIMIT = 50;
function parseRunPageLimit(limitParam) {
  if (limitParam === void 0) {
    return void 0;
  }
  if (!/^\d+$/.test(limitParam)) {
    return null;
  }
  const limit = Number.parseInt(limitParam, 10);
  return limit > 0 ? limit : null;
}
function hasUsableTimestamp(timestamp) {
  return !!timestamp && timestamp !== "unknown" && !Number.isNaN(new Date(timestamp).getTime());
}
function compareRunsByTimestampDesc(a, b) {
  const aTime = hasUsableTimestamp(a.timestamp) ? new Date(a.timestamp).getTime() : null;
  const bTime = hasUsableTimestamp(b.timestamp) ? new Date(b.timestamp).getTime() : null;
  if (aTime !== null && bTime !== null && aTime !== bTime) {
    return bTime - aTime;
  }
  if (aTime !== null && bTime === null) return -1;
  if (aTime === null && bTime !== null) return 1;
  return b.filename.localeCompare(a.filename);
}
function shouldHydrateRunRecordsForList(meta) {
  return meta.source !== "remote" || existsSync17(meta.path);
}
function isExecutionErrorResult(result) {
  return result.executionStatus === "execution_error";
}
function summarizeQualityResults(results, passThreshold) {
  let qualityCount = 0;
  let passedCount = 0;
  let executionErrorCount = 0;
  let scoreSum = 0;
  for (const result of results) {
    if (isExecutionErrorResult(result)) {
      executionErrorCount++;
      continue;
    }
    qualityCount++;
    scoreSum += result.score;
    if (result.score >= passThreshold) {
      passedCount++;
    }
  }
  const qualityFailureCount = qualityCount - passedCount;
  return {
    totalCount: results.length,
    qualityCount,
    passedCount,
    qualityFailureCount,
    executionErrorCount,
    scoreSum,
    passRate: qualityCount > 0 ? passedCount / qualityCount : 0,
    avgScore: qualityCount > 0 ? scoreSum / qualityCount : 0
  };
}
function paginateRuns(runs, cursor, limit) {
  if (limit === void 0) {
    return { runs };
  }
  if (!cursor) {
    const page2 = runs.slice(0, limit);
    return {
      runs: page2,
      ...limit < runs.length && page2.length > 0 ? { nextCursor: page2.at(-1)?.filename } : {}
    };
  }
  const cursorIndex = runs.findIndex((run2) => run2.filename === cursor);
  if (cursorIndex === -1) {
    return { runs: [] };
  }
  const page = runs.slice(cursorIndex + 1, cursorIndex + 1 + limit);
  return {
    runs: page,
    ...cursorIndex + 1 + limit < runs.length && page.length > 0 ? { nextCursor: page.at(-1)?.filename } : {}
  };
}
async function handleRuns(c4, { searchDir, agentvDir, projectId }) {
  const { runs: metas } = await listMergedResultFiles(searchDir, void 0, projectId);
  const { threshold: passThreshold } = loadStudioConfig(agentvDir);
  const parsedLimit = parseRunPageLimit(c4.req.query("limit"));
  if (parsedLimit === null) {
    return c4.json({ error: "limit must be a positive integer" }, 400);
  }
  const cursor = c4.req.query("cursor");
  const limit = parsedLimit ?? (cursor ? DEFAULT_RUN_PAGE_LIMIT : void 0);
  const runs = await Promise.all(
    metas.map(async (m) => {
      let target = m.target;
      let experiment = m.experiment ?? inferExperimentFromRunId(m.raw_filename);
      const summaryMetadata = readRunSummaryMetadataForDashboard(m.path);
      let runTags = summaryMetadata.tags;
      let runtimeSource = summaryMetadata.runtimeSource;
      let timestamp = m.timestamp;
      let testCount = m.testCount;
      let passRate = m.passRate;
      let avgScore = m.avgScore;
      let executionErrorCount = m.executionErrorCount ?? 0;
      try {
        const records = shouldHydrateRunRecordsForList(m) ? await loadLightweightResultsForMeta(searchDir, m, projectId) : [];
        if (records.length > 0) {
          const qualitySummary = summarizeQualityResults(records, passThreshold);
          target = records[0].target;
          experiment = records[0].experiment ?? experiment;
          runTags = records[0].tags ?? runTags;
          timestamp = hasUsableTimestamp(timestamp) || !records[0].timestamp ? timestamp : records[0].timestamp;
          testCount = qualitySummary.totalCount;
          passRate = qualitySummary.passRate;
          avgScore = qualitySummary.avgScore;
          executionErrorCount = qualitySummary.executionErrorCount;
          runtimeSource = deriveDashboardRuntimeSource({
            summaryMetadata,
            records
          });
        } else {
          target = target ?? getActiveRunTarget(m.path);
          runtimeSource = deriveDashboardRuntimeSource({
            summaryMetadata,
            records: []
          });
        }
      } catch {
      }
      const liveStatus = getActiveRunStatus(m.path);
      return {
        filename: m.filename,
        display_name: m.displayName,
        path: m.path,
        timestamp,
        test_count: testCount,
        pass_rate: passRate,
        avg_score: avgScore,
        execution_error_count: executionErrorCount,
        size_bytes: m.sizeBytes,
        source: m.source,
        on_remote: m.on_remote,
        ...target && { target },
        ...experiment && { experiment },
        ...runTags && { run_tags: runTags },
        ...runtimeSource && { runtime_source: runtimeSource },
        ...liveStatus && { status: liveStatus }
      };
    })
  );
  runs.sort(compareRunsByTimestampDesc);
  const page = paginateRuns(runs, cursor, limit);
  return c4.json({
    runs: page.runs,
    ...page.nextCursor ? { next_cursor: page.nextCursor } : {}
  });
}
async function handleRunLog(c4, { searchDir, projectId }) {
  const filename = c4.req.param("filename") ?? "";
  const meta = await findRunById(searchDir, filename, projectId);
  if (!meta) return c4.json({ error: "Run not found" }, 404);
  if (meta.source === "remote") {
    return c4.json({ error: "Run log is not available for remote runs" }, 404);
  }
  const logPath = path27.join(runWorkspaceDirFromManifestPath(meta.path), "console.log");
  if (!existsSync17(logPath)) {
    return c4.json({ error: "Run log not found for this run" }, 404);
  }
  try {
    const content = readFileSync14(logPath, "utf8");
    return c4.text(content);
  } catch {
    return c4.json({ error: "Failed to read run log" }, 500);
  }
}
async function handleRunDetail(c4, { searchDir, projectId }) {
  const filename = c4.req.param("filename") ?? "";
  const meta = await findRunById(searchDir, filename, projectId);
  if (!meta) return c4.json({ error: "Run not found" }, 404);
  try {
    const loaded = await loadManifestResultsForMeta(searchDir, meta, projectId);
    const records = await parseManifestForMeta(searchDir, meta, projectId);
    const summaryMetadata = readRunSummaryMetadataForDashboard(meta.path);
    const runtimeSource = deriveDashboardRuntimeSource({
      summaryMetadata,
      records
    });
    const resumeMeta = meta.source === "local" ? deriveResumeMeta(searchDir, meta.path, summaryMetadata) : {};
    const liveStatus = meta.source === "local" ? getActiveRunStatus(meta.path) : void 0;
    const baseDir = runWorkspaceDirFromManifestPath(meta.path);
    return c4.json({
      results: attachExternalTraceFields(
        attachRunDetailReadModelFields(stripHeavyFields(loaded), records, baseDir),
        records
      ),
      source: meta.source,
      source_label: meta.displayName,
      ...runtimeSource && { runtime_source: runtimeSource },
      ...liveStatus && { status: liveStatus },
      ...resumeMeta
    });
  } catch {
    return c4.json({ error: "Failed to load run" }, 500);
  }
}
function isPhoenixExternalTrace(metadata) {
  const provider = metadata.provider?.toLowerCase();
  return provider === void 0 || provider === "phoenix";
}
function externalTraceWireFromManifestRecord(record) {
  if (!record) {
    return void 0;
  }
  const metadata = externalTraceMetadataFromRecord(record) ?? externalTraceMetadataFromRecord(record.metadata);
  if (!metadata || !isPhoenixExternalTrace(metadata)) {
    return void 0;
  }
  try {
    return toExternalTraceMetadataWire(metadata);
  } catch {
    return void 0;
  }
}
function attachExternalTraceFields(results, records) {
  return results.map((result, index) => {
    const externalTrace = externalTraceWireFromManifestRecord(records[index]);
    return externalTrace ? { ...result, external_trace: externalTrace } : result;
  });
}
function readRunSummaryMetadataForDashboard(manifestPath) {
  try {
    const summaryPath = path27.join(path27.dirname(manifestPath), "summary.json");
    if (!existsSync17(summaryPath)) {
      return {};
    }
    const parsed = JSON.parse(readFileSync14(summaryPath, "utf8"));
    const planned = parsed.metadata?.planned_test_count;
    const tags = normalizeTagMap(parsed.metadata?.tags);
    return {
      ...typeof parsed.metadata?.eval_file === "string" && parsed.metadata.eval_file.trim() && { evalFile: parsed.metadata.eval_file.trim() },
      ...typeof parsed.metadata?.experiment === "string" && parsed.metadata.experiment.trim() && { experiment: parsed.metadata.experiment.trim() },
      ...tags && { tags },
      ...typeof planned === "number" && Number.isFinite(planned) && planned > 0 && { plannedTestCount: planned },
      ...parsed.metadata?.runtime_source && { runtimeSource: parsed.metadata.runtime_source }
    };
  } catch {
    return {};
  }
}
function uniqueRuntimeSourceValues(values) {
  return [...new Set([...values].filter((value) => Boolean(value?.trim())))].map((value) => value.trim()).sort();
}
function deriveDashboardRuntimeSource(params) {
  const recordWithRuntimeSource = params.records.find(
    (record) => record.runtimeSource ?? record.runtime_source
  );
  const explicit = params.summaryMetadata.runtimeSource ?? recordWithRuntimeSource?.runtimeSource ?? recordWithRuntimeSource?.runtime_source;
  if (explicit) {
    return explicit;
  }
  const evalFiles = uniqueRuntimeSourceValues([
    params.summaryMetadata.evalFile,
    ...params.records.map((record) => record.evalPath ?? record.eval_path)
  ]);
  if (evalFiles.length === 0) {
    return void 0;
  }
  return {
    schema_version: "agentv.runtime_source.v1",
    config_source: "defaults",
    eval_files: evalFiles
  };
}
function deriveResumeMeta(cwd, manifestPath, summaryMetadata = readRunSummaryMetadataForDashboard(manifestPath)) {
  const out = {};
  const runDir = path27.dirname(manifestPath);
  const relative3 = path27.relative(cwd, runDir);
  out.run_dir = relative3 !== "" && !relative3.startsWith("..") ? relative3 : runDir;
  if (summaryMetadata.evalFile) {
    out.suite_filter = summaryMetadata.evalFile;
  }
  if (summaryMetadata.plannedTestCount !== void 0) {
    out.planned_test_count = summaryMetadata.plannedTestCount;
  }
  return out;
}
async function handleRunSuites(c4, { searchDir, agentvDir, projectId }) {
  const filename = c4.req.param("filename") ?? "";
  const meta = await findRunById(searchDir, filename, projectId);
  if (!meta) return c4.json({ error: "Run not found" }, 404);
  try {
    const loaded = await loadManifestResultsForMeta(searchDir, meta, projectId);
    const { threshold: pass_threshold } = loadStudioConfig(agentvDir);
    const suiteMap = /* @__PURE__ */ new Map();
    for (const r of loaded) {
      const ds = r.suite ?? r.target ?? "default";
      const entry = suiteMap.get(ds) ?? [];
      entry.push(r);
      suiteMap.set(ds, entry);
    }
    const suites = [...suiteMap.entries()].map(([name, entry]) => {
      const qualitySummary = summarizeQualityResults(entry, pass_threshold);
      return {
        name,
        total: qualitySummary.totalCount,
        passed: qualitySummary.passedCount,
        failed: qualitySummary.qualityFailureCount,
        avg_score: qualitySummary.avgScore,
        execution_error_count: qualitySummary.executionErrorCount
      };
    });
    return c4.json({ suites });
  } catch {
    return c4.json({ error: "Failed to load suites" }, 500);
  }
}
async function handleRunCategories(c4, { searchDir, agentvDir, projectId }) {
  const filename = c4.req.param("filename") ?? "";
  const meta = await findRunById(searchDir, filename, projectId);
  if (!meta) return c4.json({ error: "Run not found" }, 404);
  try {
    const loaded = await loadManifestResultsForMeta(searchDir, meta, projectId);
    const { threshold: pass_threshold } = loadStudioConfig(agentvDir);
    return c4.json(buildCategoryRollups(loaded, pass_threshold));
  } catch {
    return c4.json({ error: "Failed to load categories" }, 500);
  }
}
async function handleCategorySuites(c4, { searchDir, agentvDir, projectId }) {
  const filename = c4.req.param("filename") ?? "";
  const category = decodeURIComponent(c4.req.param("category") ?? "");
  const meta = await findRunById(searchDir, filename, projectId);
  if (!meta) return c4.json({ error: "Run not found" }, 404);
  try {
    const loaded = await loadManifestResultsForMeta(searchDir, meta, projectId);
    const { threshold: pass_threshold } = loadStudioConfig(agentvDir);
    const selectedCategory = normalizeCategoryPath(category);
    const filtered = loaded.filter(
      (r) => isCategoryDescendant(categoryPathFromResult(r), selectedCategory)
    );
    const suiteMap = /* @__PURE__ */ new Map();
    for (const r of filtered) {
      const ds = r.suite ?? r.target ?? "default";
      const entry = suiteMap.get(ds) ?? [];
      entry.push(r);
      suiteMap.set(ds, entry);
    }
    const suites = [...suiteMap.entries()].map(([name, entry]) => {
      const qualitySummary = summarizeQualityResults(entry, pass_threshold);
      return {
        name,
        total: qualitySummary.totalCount,
        passed: qualitySummary.passedCount,
        failed: qualitySummary.qualityFailureCount,
        avg_score: qualitySummary.avgScore,
        execution_error_count: qualitySummary.executionErrorCount
      };
    });
    return c4.json({ suites });
  } catch {
    return c4.json({ error: "Failed to load suites" }, 500);
  }
}
function categoryPathFromResult(result) {
  return normalizeCategoryPath(result.category ?? DEFAULT_CATEGORY);
}
function categoryPrefixes(category) {
  const parts = category.split("/").filter((part) => part.length > 0);
  if (parts.length === 0) return [DEFAULT_CATEGORY];
  return parts.map((_, index) => parts.slice(0, index + 1).join("/"));
}
function categoryParent(category) {
  const parts = category.split("/");
  return parts.length > 1 ? parts.slice(0, -1).join("/") : void 0;
}
function categoryLabel(category) {
  return category.split("/").at(-1) ?? category;
}
function isCategoryDescendant(category, selectedCategory) {
  return category === selectedCategory || category.startsWith(`${selectedCategory}/`);
}
function summarizeCategoryBucket(name, entry, passThreshold) {
  const qualitySummary = summarizeQualityResults(entry.results, passThreshold);
  const parent = categoryParent(name);
  return {
    name,
    label: categoryLabel(name),
    ...parent && { parent },
    depth: name.split("/").filter(Boolean).length - 1,
    total: qualitySummary.totalCount,
    passed: qualitySummary.passedCount,
    failed: qualitySummary.qualityFailureCount,
    avg_score: qualitySummary.avgScore,
    execution_error_count: qualitySummary.executionErrorCount,
    suite_count: entry.suites.size,
    child_count: entry.children.size
  };
}
function buildCategoryRollups(results, passThreshold) {
  const categoryMap = /* @__PURE__ */ new Map();
  const ensureEntry = (name) => {
    const existing = categoryMap.get(name);
    if (existing) return existing;
    const created = { results: [], suites: /* @__PURE__ */ new Set(), children: /* @__PURE__ */ new Set() };
    categoryMap.set(name, created);
    return created;
  };
  for (const result of results) {
    const category = categoryPathFromResult(result);
    const suite = result.suite ?? result.target ?? "default";
    const prefixes = categoryPrefixes(category);
    for (const prefix of prefixes) {
      const entry = ensureEntry(prefix);
      entry.results.push(result);
      entry.suites.add(suite);
    }
    for (let index = 1; index < prefixes.length; index++) {
      ensureEntry(prefixes[index - 1]).children.add(prefixes[index]);
    }
  }
  const categories = [...categoryMap.entries()].map(([name, entry]) => summarizeCategoryBucket(name, entry, passThreshold)).sort((a, b) => a.name.localeCompare(b.name));
  const summariesByName = new Map(categories.map((summary) => [summary.name, summary]));
  const buildTreeNode = (summary) => {
    const children = [...categoryMap.get(summary.name)?.children ?? []].map((childName) => summariesByName.get(childName)).filter((child) => Boolean(child)).sort((a, b) => a.name.localeCompare(b.name)).map(buildTreeNode);
    return children.length > 0 ? { ...summary, children } : summary;
  };
  const categoryTree = categories.filter((summary) => !summary.parent).sort((a, b) => a.name.localeCompare(b.name)).map(buildTreeNode);
  return { categories, category_tree: categoryTree };
}
async function handleEvalDetail(c4, { searchDir, projectId }) {
  const filename = c4.req.param("filename") ?? "";
  const evalId = c4.req.param("evalId") ?? "";
  if (!evalId) return c4.json({ error: "Eval id is required" }, 400);
  const resultDir = requestedResultDir(c4);
  if (resultDir.error) return c4.json({ error: resultDir.error }, 400);
  const meta = await findRunById(searchDir, filename, projectId);
  if (!meta) return c4.json({ error: "Run not found" }, 404);
  try {
    const loaded = await loadManifestResultsForMeta(searchDir, meta, projectId);
    const records = await parseManifestForMeta(searchDir, meta, projectId);
    const selection = manifestRecordSelection(records, evalId, resultDir.value);
    const result = selection ? loaded[selection.index] : void 0;
    if (!selection || !result) return c4.json({ error: "Eval not found" }, 404);
    const baseDir = runWorkspaceDirFromManifestPath(meta.path);
    const [stripped] = attachRunDetailReadModelFields(
      stripHeavyFields([result]),
      [selection.record],
      baseDir
    );
    return c4.json({ eval: stripped });
  } catch {
    return c4.json({ error: "Failed to load eval" }, 500);
  }
}
async function handleEvalFiles(c4, { searchDir, projectId }) {
  const filename = c4.req.param("filename") ?? "";
  const evalId = c4.req.param("evalId") ?? "";
  if (!evalId) return c4.json({ error: "Eval id is required" }, 400);
  const resultDir = requestedResultDir(c4);
  if (resultDir.error) return c4.json({ error: resultDir.error }, 400);
  const meta = await findRunById(searchDir, filename, projectId);
  if (!meta) return c4.json({ error: "Run not found" }, 404);
  try {
    const records = await parseManifestForMeta(searchDir, meta, projectId);
    const selection = manifestRecordSelection(records, evalId, resultDir.value);
    if (!selection) return c4.json({ error: "Eval not found" }, 404);
    const { record } = selection;
    const baseDir = runWorkspaceDirFromManifestPath(meta.path);
    const catalog = buildResultArtifactCatalog(record, {
      runPath: relativeRunPathFromManifestPath(meta.path)
    });
    const files = buildLocalResultArtifactTree(baseDir, record, catalog);
    const rootPrefix = artifactTreeCommonDir(record, catalog);
    overlayCatalogFileNodes(files, catalog, rootPrefix);
    return c4.json({ files });
  } catch {
    return c4.json({ error: "Failed to load file tree" }, 500);
  }
}
async function handleEvalFileContent(c4, { searchDir, projectId }) {
  const filename = c4.req.param("filename") ?? "";
  const evalId = c4.req.param("evalId") ?? "";
  if (!evalId) return c4.json({ error: "Eval id is required" }, 400);
  const resultDir = requestedResultDir(c4);
  if (resultDir.error) return c4.json({ error: resultDir.error }, 400);
  const meta = await findRunById(searchDir, filename, projectId);
  if (!meta) return c4.json({ error: "Run not found" }, 404);
  const marker = "/files/";
  const markerIdx = c4.req.path.indexOf(marker);
  const encodedFilePath = markerIdx >= 0 ? c4.req.path.slice(markerIdx + marker.length) : "";
  let filePath = "";
  try {
    filePath = encodedFilePath ? decodeURIComponent(encodedFilePath) : "";
  } catch {
    return c4.json({ error: "Invalid file path encoding" }, 400);
  }
  if (!filePath) return c4.json({ error: "No file path specified" }, 400);
  await ensureRunReadable(searchDir, meta, projectId);
  const records = parseResultManifest(readFileSync14(meta.path, "utf8"));
  const selection = manifestRecordSelection(records, evalId, resultDir.value);
  if (!selection) return c4.json({ error: "Eval not found" }, 404);
  const { record } = selection;
  const catalog = buildResultArtifactCatalog(record, {
    runPath: relativeRunPathFromManifestPath(meta.path)
  });
  const entry = findArtifactCatalogEntry(catalog, filePath) ?? catalogEntryForDiscoveredLocalFile(
    buildLocalResultArtifactTree(runWorkspaceDirFromManifestPath(meta.path), record, catalog),
    filePath
  );
  if (!entry) {
    return c4.json({ error: "File not found" }, 404);
  }
  const resolved = await readArtifactCatalogEntryText(searchDir, projectId, meta, entry);
  if (resolved.error) {
    return c4.json({ error: "Path traversal not allowed" }, 403);
  }
  if (resolved.content === void 0) return c4.json({ error: "File not found" }, 404);
  return artifactFileContentResponse(c4, entry.displayPath, resolved.content);
}
async function handleEvalTraceSession(c4, { searchDir, projectId }) {
  const filename = c4.req.param("filename") ?? "";
  const evalId = c4.req.param("evalId") ?? "";
  if (!evalId) return c4.json({ error: "Eval id is required" }, 400);
  const resultDir = requestedResultDir(c4);
  if (resultDir.error) return c4.json({ error: resultDir.error }, 400);
  const meta = await findRunById(searchDir, filename, projectId);
  if (!meta) return c4.json({ error: "Run not found" }, 404);
  try {
    const records = await parseManifestForMeta(searchDir, meta, projectId);
    const selection = manifestRecordSelection(records, evalId, resultDir.value);
    if (!selection) return c4.json({ error: "Eval not found" }, 404);
    const { record } = selection;
    const trace = resolveRecordArtifactPointer(record, "trace");
    const runPath = relativeRunPathFromManifestPath(meta.path);
    const traceEntry = findPointerArtifactCatalogEntry(
      buildResultArtifactCatalog(record, { runPath }),
      trace,
      "trace",
      runPath
    );
    if (!traceEntry && !trace.path) {
      return c4.json(
        traceSessionArtifactResponse({
          status: trace.unsupportedReason ? "unsupported" : "missing",
          message: trace.unsupportedReason ?? missingTraceMessage(),
          ...trace.description && { pointer: trace.description }
        })
      );
    }
    if (trace.path && !normalizeArtifactRelativePath(trace.path)) {
      return c4.json(
        traceSessionArtifactResponse({
          status: "rejected",
          trace_path: trace.path,
          message: "Artifact path is outside the run workspace.",
          ...trace.description && { pointer: trace.description }
        }),
        403
      );
    }
    if (!traceEntry) {
      return c4.json(
        traceSessionArtifactResponse({
          status: "dangling",
          ...trace.path && { trace_path: trace.path },
          message: trace.unsupportedReason ? trace.unsupportedReason : `Trace artifact pointer is present, but ${trace.path} is not available in this run workspace.`,
          ...trace.description && { pointer: trace.description }
        })
      );
    }
    const resolvedTrace = await readArtifactCatalogEntryText(
      searchDir,
      projectId,
      meta,
      traceEntry
    );
    if (resolvedTrace.error) {
      return c4.json(
        traceSessionArtifactResponse({
          status: "rejected",
          trace_path: traceEntry.displayPath,
          message: resolvedTrace.error,
          ...trace.description && { pointer: trace.description }
        }),
        403
      );
    }
    const content = resolvedTrace.content;
    if (content === void 0) {
      const refMessage = trace.ref ? ` on ${trace.ref}` : "";
      return c4.json(
        traceSessionArtifactResponse({
          status: "dangling",
          trace_path: traceEntry.displayPath,
          message: `Trace artifact pointer${refMessage} is present, but ${traceEntry.displayPath} is not available in this run workspace.`,
          ...trace.description && { pointer: trace.description }
        })
      );
    }
    const parsed = parseTraceArtifactJson(content);
    if (parsed.message) {
      return c4.json(
        traceSessionArtifactResponse({
          status: "invalid",
          trace_path: traceEntry.displayPath,
          message: parsed.message,
          ...trace.description && { pointer: trace.description }
        })
      );
    }
    const normalized = normalizeTraceArtifactToTraceSessionResponse(parsed.value, {
      runId: filename,
      testId: record.test_id,
      suite: record.suite,
      target: record.target,
      artifactPath: traceEntry.displayPath
    });
    if (normalized.status === "unsupported") {
      return c4.json(
        traceSessionArtifactResponse({
          status: "unsupported",
          trace_path: traceEntry.displayPath,
          message: normalized.message,
          ...trace.description && { pointer: trace.description }
        })
      );
    }
    return c4.json(
      traceSessionArtifactResponse({
        status: "ok",
        trace_path: traceEntry.displayPath,
        trace_session: normalized.traceSession,
        ...trace.description && { pointer: trace.description }
      })
    );
  } catch {
    return c4.json({ error: "Failed to load trace artifact" }, 500);
  }
}
async function handleEvalTranscript(c4, { searchDir, projectId }) {
  const filename = c4.req.param("filename") ?? "";
  const evalId = c4.req.param("evalId") ?? "";
  if (!evalId) return c4.json({ error: "Eval id is required" }, 400);
  const resultDir = requestedResultDir(c4);
  if (resultDir.error) return c4.json({ error: resultDir.error }, 400);
  const meta = await findRunById(searchDir, filename, projectId);
  if (!meta) return c4.json({ error: "Run not found" }, 404);
  try {
    const records = await parseManifestForMeta(searchDir, meta, projectId);
    const selection = manifestRecordSelection(records, evalId, resultDir.value);
    if (!selection) return c4.json({ error: "Eval not found" }, 404);
    const { record } = selection;
    const transcript = resolveRecordArtifactPointer(record, "transcript");
    const answer = resolveRecordArtifactPointer(record, "answer");
    const runPath = relativeRunPathFromManifestPath(meta.path);
    const catalog = buildResultArtifactCatalog(record, { runPath });
    const transcriptEntry = findPointerArtifactCatalogEntry(
      catalog,
      transcript,
      "transcript",
      runPath
    );
    const answerEntry = findPointerArtifactCatalogEntry(catalog, answer, "answer", runPath);
    const transcriptRawEntry = readableLocalCatalogEntry(
      meta,
      record.transcript_raw_path ? findArtifactCatalogEntry(catalog, record.transcript_raw_path) : void 0
    );
    if (!transcriptEntry && !transcript.path) {
      return c4.json({
        status: transcript.unsupportedReason ? "unsupported" : "missing",
        message: transcript.unsupportedReason ?? missingTranscriptMessage(),
        ...transcript.description && { pointer: transcript.description }
      });
    }
    if (!transcriptEntry) {
      return c4.json({
        status: "dangling",
        ...transcript.path && { transcript_path: transcript.path },
        message: transcript.unsupportedReason ? transcript.unsupportedReason : `Transcript artifact pointer is present, but ${transcript.path} is not available in this run workspace.`,
        ...transcript.description && { pointer: transcript.description }
      });
    }
    const resolvedTranscript = await readArtifactCatalogEntryText(
      searchDir,
      projectId,
      meta,
      transcriptEntry
    );
    if (resolvedTranscript.error) {
      return c4.json({
        status: "dangling",
        transcript_path: transcriptEntry.displayPath,
        message: resolvedTranscript.error,
        ...transcript.description && { pointer: transcript.description }
      });
    }
    const content = resolvedTranscript.content;
    if (content === void 0) {
      const refMessage = transcript.ref ? ` on ${transcript.ref}` : "";
      return c4.json({
        status: "dangling",
        transcript_path: transcriptEntry.displayPath,
        message: `Transcript artifact pointer${refMessage} is present, but ${transcriptEntry.displayPath} is not available in this run workspace.`,
        ...transcript.description && { pointer: transcript.description }
      });
    }
    const answerContent = answerEntry ? (await readArtifactCatalogEntryText(searchDir, projectId, meta, answerEntry)).content : void 0;
    return c4.json({
      status: "ok",
      transcript_path: transcriptEntry.displayPath,
      ...transcriptRawEntry && { transcript_raw_path: transcriptRawEntry.displayPath },
      content,
      language: inferLanguage(transcriptEntry.displayPath),
      ...answerEntry && { answer_path: answerEntry.displayPath },
      ...answerContent !== void 0 && { answer_content: answerContent },
      ...transcript.description && { pointer: transcript.description }
    });
  } catch {
    return c4.json({ error: "Failed to load transcript artifact" }, 500);
  }
}
var EXPERIMENT_TAG_KEY = "experiment";
function noKeyBucketLabel(key) {
  return `(no ${key})`;
}
function resolveTagGroupValue(record, key) {
  if (key === EXPERIMENT_TAG_KEY) {
    return record.experiment ?? record.tags?.experiment ?? "default";
  }
  const value = record.tags?.[key];
  return value === void 0 || value === "" ? noKeyBucketLabel(key) : value;
}
function resolveRunLevelTagFields(meta, records, summaryMetadata) {
  const inferredExperiment = meta.experiment ?? inferExperimentFromRunId(meta.raw_filename);
  const experiment = records[0]?.experiment ?? inferredExperiment;
  const tags = records[0]?.tags ?? summaryMetadata.tags;
  return {
    ...experiment !== void 0 && { experiment },
    ...tags !== void 0 && { tags }
  };
}
async function handleTags(c4, { searchDir, agentvDir, projectId }) {
  const { runs: metas } = await listMergedResultFiles(searchDir, void 0, projectId);
  const { threshold: pass_threshold } = loadStudioConfig(agentvDir);
  const rawKey = c4.req.query("key");
  const key = rawKey?.trim() ? rawKey.trim() : void 0;
  if (!key) {
    const keys = /* @__PURE__ */ new Set([EXPERIMENT_TAG_KEY]);
    for (const m of metas) {
      try {
        await ensureRunReadable(searchDir, m, projectId);
        const summaryMetadata = readRunSummaryMetadataForDashboard(m.path);
        for (const tagKey of Object.keys(summaryMetadata.tags ?? {})) {
          keys.add(tagKey);
        }
      } catch {
      }
    }
    return c4.json({ keys: [...keys].sort() });
  }
  const groups = await aggregateTagGroups(metas, key, { searchDir, projectId, pass_threshold });
  return c4.json({ key, groups });
}
async function aggregateTagGroups(metas, key, opts) {
  const groupMap = /* @__PURE__ */ new Map();
  for (const m of metas) {
    try {
      const records = await loadLightweightResultsForMeta(opts.searchDir, m, opts.projectId);
      const summaryMetadata = readRunSummaryMetadataForDashboard(m.path);
      const value = resolveTagGroupValue(
        resolveRunLevelTagFields(m, records, summaryMetadata),
        key
      );
      const entry = groupMap.get(value) ?? {
        targets: /* @__PURE__ */ new Set(),
        runFilenames: /* @__PURE__ */ new Set(),
        evalCount: 0,
        qualityCount: 0,
        passedCount: 0,
        executionErrorCount: 0,
        lastTimestamp: ""
      };
      entry.runFilenames.add(m.filename);
      for (const r of records) {
        if (r.target) entry.targets.add(r.target);
        entry.evalCount++;
        if (isExecutionErrorResult(r)) {
          entry.executionErrorCount++;
        } else {
          entry.qualityCount++;
          if (r.score >= opts.pass_threshold) entry.passedCount++;
        }
        if (r.timestamp && r.timestamp > entry.lastTimestamp) {
          entry.lastTimestamp = r.timestamp;
        }
      }
      groupMap.set(value, entry);
    } catch {
    }
  }
  return [...groupMap.entries()].map(([name, entry]) => ({
    name,
    run_count: entry.runFilenames.size,
    target_count: entry.targets.size,
    eval_count: entry.evalCount,
    quality_count: entry.qualityCount,
    passed_count: entry.passedCount,
    execution_error_count: entry.executionErrorCount,
    pass_rate: entry.qualityCount > 0 ? entry.passedCount / entry.qualityCount : 0,
    last_run: entry.lastTimestamp || null
  }));
}
async function handleExperiments(c4, ctx) {
  const { runs: metas } = await listMergedResultFiles(ctx.searchDir, void 0, ctx.projectId);
  const { threshold: pass_threshold } = loadStudioConfig(ctx.agentvDir);
  const experiments = await aggregateTagGroups(metas, EXPERIMENT_TAG_KEY, {
    searchDir: ctx.searchDir,
    projectId: ctx.projectId,
    pass_threshold
  });
  return c4.json({ experiments });
}
async function handleCompare(c4, { searchDir, agentvDir, projectId }) {
  const { runs: metas } = await listMergedResultFiles(searchDir, void 0, projectId);
  const { threshold: pass_threshold } = loadStudioConfig(agentvDir);
  const cellMap = /* @__PURE__ */ new Map();
  const runEntries = [];
  const experimentsSet = /* @__PURE__ */ new Set();
  const targetsSet = /* @__PURE__ */ new Set();
  const MAX_TESTS_PER_CELL = 100;
  for (const m of metas) {
    try {
      const records = await loadLightweightResultsForMeta(searchDir, m, projectId);
      const runTestMap = /* @__PURE__ */ new Map();
      let runEvalCount = 0;
      let runQualityCount = 0;
      let runPassedCount = 0;
      let runExecutionErrorCount = 0;
      let runScoreSum = 0;
      let runExperiment = "default";
      let runTarget = "default";
      let runStartedAt = m.timestamp;
      for (const r of records) {
        const experiment = resolveTagGroupValue(r, EXPERIMENT_TAG_KEY);
        const target = r.target ?? "default";
        experimentsSet.add(experiment);
        targetsSet.add(target);
        runExperiment = experiment;
        runTarget = target;
        if (r.timestamp && r.timestamp < runStartedAt) runStartedAt = r.timestamp;
        const key = JSON.stringify([experiment, target]);
        const entry = cellMap.get(key) ?? {
          experiment,
          target,
          evalCount: 0,
          qualityCount: 0,
          passedCount: 0,
          executionErrorCount: 0,
          scoreSum: 0,
          tests: []
        };
        const isExecutionError = isExecutionErrorResult(r);
        const passed = !isExecutionError && r.score >= pass_threshold;
        entry.evalCount++;
        if (isExecutionError) {
          entry.executionErrorCount++;
        } else {
          entry.qualityCount++;
          if (passed) entry.passedCount++;
          entry.scoreSum += r.score;
        }
        entry.tests.push({
          test_id: r.testId,
          ...r.category && { category: normalizeCategoryPath(r.category) },
          score: r.score,
          passed,
          execution_status: r.executionStatus
        });
        cellMap.set(key, entry);
        runTestMap.set(r.testId, {
          test_id: r.testId,
          ...r.category && { category: normalizeCategoryPath(r.category) },
          score: r.score,
          passed,
          execution_status: r.executionStatus
        });
        runEvalCount++;
        if (isExecutionError) {
          runExecutionErrorCount++;
        } else {
          runQualityCount++;
          if (passed) runPassedCount++;
          runScoreSum += r.score;
        }
      }
      if (runEvalCount === 0) continue;
      const runTests = [...runTestMap.values()].slice(-MAX_TESTS_PER_CELL);
      runEntries.push({
        run_id: m.filename,
        started_at: runStartedAt,
        experiment: runExperiment,
        target: runTarget,
        source: m.source,
        eval_count: runEvalCount,
        quality_count: runQualityCount,
        passed_count: runPassedCount,
        execution_error_count: runExecutionErrorCount,
        pass_rate: runQualityCount > 0 ? runPassedCount / runQualityCount : 0,
        avg_score: runQualityCount > 0 ? runScoreSum / runQualityCount : 0,
        tests: runTests
      });
    } catch {
    }
  }
  const baselineTarget = c4.req.query("baseline") ?? "";
  if (baselineTarget && !targetsSet.has(baselineTarget)) {
    return c4.json({ error: `Baseline target "${baselineTarget}" does not exist in the data` }, 400);
  }
  const baselineScores = /* @__PURE__ */ new Map();
  if (baselineTarget) {
    for (const entry of cellMap.values()) {
      if (entry.target === baselineTarget && entry.qualityCount > 0) {
        baselineScores.set(entry.experiment, entry.scoreSum / entry.qualityCount);
      }
    }
  }
  const cells = [...cellMap.values()].map((entry) => {
    const dedupMap = /* @__PURE__ */ new Map();
    for (const t of entry.tests) {
      dedupMap.set(t.test_id, t);
    }
    const dedupedTests = [...dedupMap.values()];
    const cappedTests = dedupedTests.slice(-MAX_TESTS_PER_CELL);
    const avgScore = entry.qualityCount > 0 ? entry.scoreSum / entry.qualityCount : 0;
    const cell = {
      experiment: entry.experiment,
      target: entry.target,
      eval_count: entry.evalCount,
      quality_count: entry.qualityCount,
      passed_count: entry.passedCount,
      execution_error_count: entry.executionErrorCount,
      pass_rate: entry.qualityCount > 0 ? entry.passedCount / entry.qualityCount : 0,
      avg_score: avgScore,
      tests: cappedTests
    };
    if (baselineTarget && entry.target !== baselineTarget) {
      const baseAvg = baselineScores.get(entry.experiment);
      if (baseAvg !== void 0) {
        cell.delta = Math.round((avgScore - baseAvg) * 1e3) / 1e3;
        cell.normalized_gain = baseAvg >= 1 ? null : Math.round((avgScore - baseAvg) / (1 - baseAvg) * 1e3) / 1e3;
      }
    }
    return cell;
  });
  runEntries.sort((a, b) => b.started_at.localeCompare(a.started_at));
  return c4.json({
    experiments: [...experimentsSet].sort(),
    targets: [...targetsSet].sort(),
    cells,
    runs: runEntries
  });
}
async function handleTargets(c4, { searchDir, agentvDir, projectId }) {
  const { runs: metas } = await listMergedResultFiles(searchDir, void 0, projectId);
  const { threshold: pass_threshold } = loadStudioConfig(agentvDir);
  const targetMap = /* @__PURE__ */ new Map();
  for (const m of metas) {
    try {
      const records = await loadLightweightResultsForMeta(searchDir, m, projectId);
      for (const r of records) {
        const target = r.target ?? "default";
        const entry = targetMap.get(target) ?? {
          experiments: /* @__PURE__ */ new Set(),
          runFilenames: /* @__PURE__ */ new Set(),
          evalCount: 0,
          qualityCount: 0,
          passedCount: 0,
          executionErrorCount: 0
        };
        entry.runFilenames.add(m.filename);
        if (r.experiment) entry.experiments.add(r.experiment);
        entry.evalCount++;
        if (isExecutionErrorResult(r)) {
          entry.executionErrorCount++;
        } else {
          entry.qualityCount++;
          if (r.score >= pass_threshold) entry.passedCount++;
        }
        targetMap.set(target, entry);
      }
    } catch {
    }
  }
  const targets = [...targetMap.entries()].map(([name, entry]) => ({
    name,
    run_count: entry.runFilenames.size,
    experiment_count: entry.experiments.size,
    eval_count: entry.evalCount,
    quality_count: entry.qualityCount,
    passed_count: entry.passedCount,
    execution_error_count: entry.executionErrorCount,
    pass_rate: entry.qualityCount > 0 ? entry.passedCount / entry.qualityCount : 0
  }));
  return c4.json({ targets });
}
function handleConfig(c4, { agentvDir, searchDir }, options) {
  const config = loadStudioConfig(agentvDir);
  return c4.json({
    threshold: config.threshold,
    app_name: config.appName,
    read_only: options?.readOnly === true,
    project_name: path27.basename(searchDir),
    project_dashboard: options?.projectDashboard === true,
    ...options?.currentProjectId && { current_project_id: options.currentProjectId }
  });
}
function expandHomePath(inputPath) {
  if (inputPath === "~") return homedir();
  if (inputPath.startsWith("~/") || inputPath.startsWith("~\\")) {
    return path27.join(homedir(), inputPath.slice(2));
  }
  return inputPath;
}
function resolveBrowsePath(inputPath, cwd) {
  const trimmed = inputPath?.trim() ?? "";
  const expanded = trimmed.length > 0 ? expandHomePath(trimmed) : cwd;
  return path27.resolve(cwd, expanded);
}
function hasAgentvDir(dirPath) {
  try {
    return statSync6(path27.join(dirPath, ".agentv")).isDirectory();
  } catch {
    return false;
  }
}
function directoryBrowseEntry(dirPath) {
  return {
    name: path27.basename(dirPath) || dirPath,
    path: dirPath,
    hasAgentv: hasAgentvDir(dirPath)
  };
}
function browseFilesystemDirectories(inputPath, cwd) {
  const browsePath = resolveBrowsePath(inputPath, cwd);
  if (!existsSync17(browsePath)) {
    throw new Error(`Directory not found: ${browsePath}`);
  }
  let stats;
  try {
    stats = statSync6(browsePath);
  } catch (err2) {
    throw new Error(`Unable to read directory: ${err2.message}`);
  }
  if (!stats.isDirectory()) {
    throw new Error(`Not a directory: ${browsePath}`);
  }
  let entries2;
  try {
    entries2 = readdirSync4(browsePath, { withFileTypes: true }).map((entry) => {
      const entryPath = path27.join(browsePath, entry.name);
      if (entry.isDirectory()) return directoryBrowseEntry(entryPath);
      if (entry.isSymbolicLink()) {
        try {
          return statSync6(entryPath).isDirectory() ? directoryBrowseEntry(entryPath) : null;
        } catch {
          return null;
        }
      }
      return null;
    }).filter((entry) => entry !== null).sort((a, b) => {
      if (a.hasAgentv !== b.hasAgentv) return a.hasAgentv ? -1 : 1;
      return a.name.localeCompare(b.name);
    });
  } catch (err2) {
    throw new Error(`Unable to read directory: ${err2.message}`);
  }
  const parentPath = path27.dirname(browsePath);
  return {
    path: browsePath,
    parentPath: parentPath !== browsePath ? parentPath : void 0,
    current: directoryBrowseEntry(browsePath),
    entries: entries2
  };
}
function directoryBrowseEntryToWire(entry) {
  return {
    name: entry.name,
    path: entry.path,
    has_agentv: entry.hasAgentv
  };
}
function directoryBrowseResultToWire(result) {
  return {
    path: result.path,
    ...result.parentPath !== void 0 && { parent_path: result.parentPath },
    current: directoryBrowseEntryToWire(result.current),
    entries: result.entries.map(directoryBrowseEntryToWire)
  };
}
async function handleRunDelete(c4, { searchDir, projectId }) {
  const filename = c4.req.param("filename") ?? "";
  const meta = await findRunById(searchDir, filename, projectId);
  if (!meta) return c4.json({ error: "Run not found" }, 404);
  if (meta.source === "remote") {
    return c4.json({ error: "Run deletion is only available for local runs" }, 400);
  }
  if (getActiveRunStatus(meta.path) === "starting" || getActiveRunStatus(meta.path) === "running") {
    return c4.json({ error: "Run is still active" }, 409);
  }
  try {
    const deleted = deleteLocalRun(searchDir, filename);
    return c4.json({ ok: true, run_id: deleted.runId });
  } catch (err2) {
    return c4.json({ error: err2.message }, 400);
  }
}
function validateLocalCompletedRun(searchDir, meta, actionName = "Run combine") {
  if (meta.source === "remote") {
    return { error: `${actionName} is only available for local runs`, status: 400 };
  }
  if (getActiveRunStatus(meta.path) === "starting" || getActiveRunStatus(meta.path) === "running") {
    return { error: "Run is still active", status: 409 };
  }
  const manifestPath = path27.resolve(meta.path);
  if (!isRunManifestPath(manifestPath)) {
    return { error: "Run workspace is invalid", status: 400 };
  }
  const runDir = path27.dirname(manifestPath);
  if (relativeRunPathFromCwd(searchDir, runDir) && existsSync17(runDir)) {
    return { ok: true };
  }
  return { error: "Run workspace is outside the local results directory", status: 400 };
}
async function handleRunsCombine(c4, { searchDir, projectId }) {
  let body;
  try {
    body = await c4.req.json();
  } catch {
    return c4.json({ error: "Invalid JSON" }, 400);
  }
  if (!body || typeof body !== "object") {
    return c4.json({ error: "Invalid payload" }, 400);
  }
  const payload = body;
  const runIds = payload.run_ids;
  if (!Array.isArray(runIds) || !runIds.every((id) => typeof id === "string" && id.trim())) {
    return c4.json({ error: "Missing run_ids array" }, 400);
  }
  if (runIds.length < 2) {
    return c4.json({ error: "Select at least two runs to combine" }, 400);
  }
  const uniqueRunIds = new Set(runIds);
  if (uniqueRunIds.size !== runIds.length) {
    return c4.json({ error: "Duplicate run_ids are not allowed" }, 400);
  }
  const displayNameValue = payload.display_name;
  if (displayNameValue !== void 0 && typeof displayNameValue !== "string") {
    return c4.json({ error: "display_name must be a string" }, 400);
  }
  const experimentValue = payload.experiment;
  if (experimentValue !== void 0 && typeof experimentValue !== "string") {
    return c4.json({ error: "experiment must be a string" }, 400);
  }
  const duplicatePolicyValue = payload.duplicate_policy;
  const duplicatePolicy = duplicatePolicyValue === void 0 ? "error" : String(duplicatePolicyValue);
  if (duplicatePolicy !== "error" && duplicatePolicy !== "latest") {
    return c4.json({ error: "duplicate_policy must be error or latest" }, 400);
  }
  const displayName = displayNameValue?.trim();
  const experiment = experimentValue?.trim() || void 0;
  const metas = [];
  for (const runId of runIds) {
    const meta = await findRunById(searchDir, runId, projectId);
    if (!meta) return c4.json({ error: `Run not found: ${runId}` }, 404);
    const safe = validateLocalCompletedRun(searchDir, meta);
    if ("error" in safe) return c4.json({ error: safe.error }, safe.status);
    metas.push(meta);
  }
  try {
    const sources = buildCombineRunSources(
      metas.map((meta) => meta.path),
      searchDir,
      {
        ids: runIds,
        displayNames: metas.map((meta) => meta.displayName)
      }
    );
    const combined = combineRunSources({
      cwd: searchDir,
      sources,
      experiment,
      displayName,
      duplicatePolicy
    });
    return c4.json(
      {
        ok: true,
        run_id: combined.runId,
        display_name: combined.displayName,
        experiment: combined.experiment,
        combined_from_run_ids: combined.combinedFromRunIds,
        duplicate_conflicts: combined.duplicateConflicts
      },
      201
    );
  } catch (err2) {
    if (err2 instanceof CombineDuplicateError) {
      return c4.json({ error: err2.message, duplicates: err2.conflicts }, 409);
    }
    const message = err2 instanceof Error ? err2.message : String(err2);
    if (message.includes("requires an experiment name") || message.includes("must inherit") || message.includes("must match combined experiment") || message.includes("Invalid experiment name")) {
      return c4.json({ error: message }, 400);
    }
    return c4.json({ error: message }, 500);
  }
}
function createApp(results, resultDir, cwd, sourceFile, options) {
  const searchDir = cwd ?? resultDir;
  const agentvDir = path27.join(searchDir, ".agentv");
  const defaultCtx = { searchDir, agentvDir, projectId: options?.currentProjectId };
  const readOnly = options?.readOnly === true;
  const app2 = new Hono();
  function withProject(c4, handler) {
    const project = getProject(c4.req.param("projectId") ?? "");
    if (!project || !existsSync17(project.path)) {
      return c4.json({ error: "Project not found" }, 404);
    }
    return handler(c4, {
      searchDir: project.path,
      agentvDir: path27.join(project.path, ".agentv"),
      projectId: project.id
    });
  }
  app2.post("/api/config", async (c4) => {
    if (readOnly) {
      return c4.json({ error: "Dashboard is running in read-only mode" }, 403);
    }
    try {
      const body = await c4.req.json();
      const current = loadStudioConfig(agentvDir);
      const updated = { ...current, ...body };
      if (typeof updated.threshold === "number") {
        updated.threshold = Math.min(1, Math.max(0, updated.threshold));
      }
      saveStudioConfig(agentvDir, updated);
      return c4.json(updated);
    } catch {
      return c4.json({ error: "Failed to save config" }, 500);
    }
  });
  function projectEntryToWire(entry) {
    return {
      id: entry.id,
      path: entry.path,
      added_at: entry.addedAt,
      last_opened_at: entry.lastOpenedAt
    };
  }
  async function summarizeProjectRunMetas(project) {
    const { runs: metas } = await listMergedResultFiles(project.path, void 0, project.id);
    const threshold = loadStudioConfig(path27.join(project.path, ".agentv")).threshold;
    let passRateSum = 0;
    let executionErrorCount = 0;
    for (const meta of metas) {
      try {
        const records = shouldHydrateRunRecordsForList(meta) ? await loadLightweightResultsForMeta(project.path, meta, project.id) : [];
        if (records.length > 0) {
          const qualitySummary = summarizeQualityResults(records, threshold);
          passRateSum += qualitySummary.passRate;
          executionErrorCount += qualitySummary.executionErrorCount;
          continue;
        }
      } catch {
      }
      passRateSum += meta.passRate;
      executionErrorCount += meta.executionErrorCount ?? 0;
    }
    return {
      runCount: metas.length,
      passRate: metas.length > 0 ? passRateSum / metas.length : 0,
      executionErrorCount,
      lastRun: metas.length > 0 ? metas[0].timestamp : null
    };
  }
  app2.get("/api/projects", async (c4) => {
    const registry = loadProjectRegistry();
    const projects = await Promise.all(
      registry.projects.map(async (p) => {
        let summary = {
          runCount: 0,
          passRate: 0,
          executionErrorCount: 0,
          lastRun: null
        };
        try {
          summary = await summarizeProjectRunMetas(p);
        } catch {
        }
        return {
          ...projectEntryToWire(p),
          run_count: summary.runCount,
          pass_rate: summary.passRate,
          execution_error_count: summary.executionErrorCount,
          last_run: summary.lastRun
        };
      })
    );
    return c4.json({ projects });
  });
  app2.get("/api/filesystem/browse", (c4) => {
    try {
      return c4.json(
        directoryBrowseResultToWire(browseFilesystemDirectories(c4.req.query("path"), searchDir))
      );
    } catch (err2) {
      return c4.json({ error: err2.message }, 400);
    }
  });
  app2.post("/api/projects", async (c4) => {
    if (readOnly) {
      return c4.json({ error: "Dashboard is running in read-only mode" }, 403);
    }
    try {
      const body = await c4.req.json();
      if (!body.path) return c4.json({ error: "Missing path" }, 400);
      const entry = addProject(body.path);
      return c4.json(projectEntryToWire(entry), 201);
    } catch (err2) {
      return c4.json({ error: err2.message }, 400);
    }
  });
  app2.get("/api/projects/:projectId/summary", async (c4) => {
    const project = getProject(c4.req.param("projectId") ?? "");
    if (!project) return c4.json({ error: "Project not found" }, 404);
    try {
      const summary = await summarizeProjectRunMetas(project);
      return c4.json({
        id: project.id,
        path: project.path,
        run_count: summary.runCount,
        pass_rate: summary.passRate,
        execution_error_count: summary.executionErrorCount,
        last_run: summary.lastRun
      });
    } catch {
      return c4.json({ error: "Failed to read project" }, 500);
    }
  });
  app2.get("/api/projects/all-runs", async (c4) => {
    const registry = loadProjectRegistry();
    const allRuns = [];
    for (const p of registry.projects) {
      try {
        const { runs: metas } = await listMergedResultFiles(p.path, void 0, p.id);
        for (const m of metas) {
          let target = m.target;
          let experiment = m.experiment ?? inferExperimentFromRunId(m.raw_filename);
          const summaryMetadata = readRunSummaryMetadataForDashboard(m.path);
          let runtimeSource = summaryMetadata.runtimeSource;
          let passRate = m.passRate;
          let avgScore = m.avgScore;
          let executionErrorCount = m.executionErrorCount ?? 0;
          try {
            const records = shouldHydrateRunRecordsForList(m) ? await loadLightweightResultsForMeta(p.path, m, p.id) : [];
            if (records.length > 0) {
              const qualitySummary = summarizeQualityResults(
                records,
                loadStudioConfig(path27.join(p.path, ".agentv")).threshold
              );
              target = records[0].target;
              experiment = records[0].experiment ?? experiment;
              passRate = qualitySummary.passRate;
              avgScore = qualitySummary.avgScore;
              executionErrorCount = qualitySummary.executionErrorCount;
              runtimeSource = deriveDashboardRuntimeSource({
                summaryMetadata,
                records
              });
            }
          } catch {
          }
          allRuns.push({
            filename: m.filename,
            display_name: m.displayName,
            path: m.path,
            timestamp: m.timestamp,
            test_count: m.testCount,
            pass_rate: passRate,
            avg_score: avgScore,
            execution_error_count: executionErrorCount,
            size_bytes: m.sizeBytes,
            source: m.source,
            ...target && { target },
            ...experiment && { experiment },
            ...runtimeSource && { runtime_source: runtimeSource },
            project_id: p.id
          });
        }
      } catch {
      }
    }
    allRuns.sort(compareRunsByTimestampDesc);
    return c4.json({ runs: allRuns });
  });
  app2.delete("/api/projects/:projectId", (c4) => {
    if (readOnly) {
      return c4.json({ error: "Dashboard is running in read-only mode" }, 403);
    }
    const removed = removeProject(c4.req.param("projectId") ?? "");
    if (!removed) return c4.json({ error: "Project not found" }, 404);
    return c4.json({ ok: true });
  });
  app2.get(
    "/api/config",
    (c4) => handleConfig(c4, defaultCtx, {
      readOnly,
      projectDashboard: options?.projectDashboard,
      currentProjectId: options?.currentProjectId
    })
  );
  app2.get(
    "/api/remote/status",
    async (c4) => c4.json(await getRemoteResultsStatus(searchDir, defaultCtx.projectId))
  );
  app2.post(
    "/api/remote/sync",
    async (c4) => c4.json(await syncRemoteResults(searchDir, defaultCtx.projectId))
  );
  app2.post(
    "/api/remote/sync/confirm-merge",
    async (c4) => c4.json(await confirmRemoteResultsMerge(searchDir, defaultCtx.projectId))
  );
  app2.get("/api/runs", (c4) => handleRuns(c4, defaultCtx));
  app2.post("/api/runs/combine", (c4) => {
    if (readOnly) {
      return c4.json({ error: "Dashboard is running in read-only mode" }, 403);
    }
    return handleRunsCombine(c4, defaultCtx);
  });
  app2.delete("/api/runs/:filename", (c4) => {
    if (readOnly) {
      return c4.json({ error: "Dashboard is running in read-only mode" }, 403);
    }
    return handleRunDelete(c4, defaultCtx);
  });
  app2.get("/api/runs/:filename", (c4) => handleRunDetail(c4, defaultCtx));
  app2.get("/api/runs/:filename/log", (c4) => handleRunLog(c4, defaultCtx));
  app2.get("/api/runs/:filename/suites", (c4) => handleRunSuites(c4, defaultCtx));
  app2.get("/api/runs/:filename/categories", (c4) => handleRunCategories(c4, defaultCtx));
  app2.get(
    "/api/runs/:filename/categories/:category/suites",
    (c4) => handleCategorySuites(c4, defaultCtx)
  );
  app2.get("/api/runs/:filename/evals/:evalId", (c4) => handleEvalDetail(c4, defaultCtx));
  app2.get(
    "/api/runs/:filename/evals/:evalId/trace-session",
    (c4) => handleEvalTraceSession(c4, defaultCtx)
  );
  app2.get(
    "/api/runs/:filename/evals/:evalId/transcript",
    (c4) => handleEvalTranscript(c4, defaultCtx)
  );
  app2.get("/api/runs/:filename/evals/:evalId/files", (c4) => handleEvalFiles(c4, defaultCtx));
  app2.get("/api/runs/:filename/evals/:evalId/files/*", (c4) => handleEvalFileContent(c4, defaultCtx));
  app2.get("/api/tags", (c4) => handleTags(c4, defaultCtx));
  app2.get("/api/experiments", (c4) => handleExperiments(c4, defaultCtx));
  app2.get("/api/compare", (c4) => handleCompare(c4, defaultCtx));
  app2.get("/api/targets", (c4) => handleTargets(c4, defaultCtx));
  app2.get("/api/index", async (c4) => {
    const { runs: metas } = await listMergedResultFiles(searchDir, void 0, defaultCtx.projectId);
    const entries2 = await Promise.all(
      metas.map(async (m) => {
        let totalCostUsd = 0;
        let passRate = m.passRate;
        let avgScore = m.avgScore;
        let testCount = m.testCount;
        let executionErrorCount = m.executionErrorCount ?? 0;
        try {
          const records = shouldHydrateRunRecordsForList(m) ? await loadLightweightResultsForMeta(searchDir, m, defaultCtx.projectId) : [];
          totalCostUsd = records.reduce((sum, r) => sum + (r.costUsd ?? 0), 0);
          if (records.length > 0) {
            const qualitySummary = summarizeQualityResults(
              records,
              loadStudioConfig(agentvDir).threshold
            );
            testCount = qualitySummary.totalCount;
            passRate = qualitySummary.passRate;
            avgScore = qualitySummary.avgScore;
            executionErrorCount = qualitySummary.executionErrorCount;
          }
        } catch {
        }
        return {
          run_filename: m.filename,
          display_name: m.displayName,
          test_count: testCount,
          pass_rate: passRate,
          avg_score: avgScore,
          execution_error_count: executionErrorCount,
          total_cost_usd: totalCostUsd,
          timestamp: m.timestamp
        };
      })
    );
    return c4.json({ entries: entries2 });
  });
  app2.get(
    "/api/projects/:projectId/config",
    (c4) => withProject(
      c4,
      (ctx, dataCtx) => handleConfig(ctx, dataCtx, {
        readOnly,
        projectDashboard: options?.projectDashboard
      })
    )
  );
  app2.get(
    "/api/projects/:projectId/remote/status",
    (c4) => withProject(
      c4,
      async (ctx, dataCtx) => ctx.json(await getRemoteResultsStatus(dataCtx.searchDir, dataCtx.projectId))
    )
  );
  app2.post(
    "/api/projects/:projectId/remote/sync",
    (c4) => withProject(
      c4,
      async (ctx, dataCtx) => ctx.json(await syncRemoteResults(dataCtx.searchDir, dataCtx.projectId))
    )
  );
  app2.post(
    "/api/projects/:projectId/remote/sync/confirm-merge",
    (c4) => withProject(
      c4,
      async (ctx, dataCtx) => ctx.json(await confirmRemoteResultsMerge(dataCtx.searchDir, dataCtx.projectId))
    )
  );
  app2.get("/api/projects/:projectId/runs", (c4) => withProject(c4, handleRuns));
  app2.post("/api/projects/:projectId/runs/combine", (c4) => {
    if (readOnly) {
      return c4.json({ error: "Dashboard is running in read-only mode" }, 403);
    }
    return withProject(c4, handleRunsCombine);
  });
  app2.delete("/api/projects/:projectId/runs/:filename", (c4) => {
    if (readOnly) {
      return c4.json({ error: "Dashboard is running in read-only mode" }, 403);
    }
    return withProject(c4, handleRunDelete);
  });
  app2.get("/api/projects/:projectId/runs/:filename", (c4) => withProject(c4, handleRunDetail));
  app2.get("/api/projects/:projectId/runs/:filename/log", (c4) => withProject(c4, handleRunLog));
  app2.get("/api/projects/:projectId/runs/:filename/suites", (c4) => withProject(c4, handleRunSuites));
  app2.get(
    "/api/projects/:projectId/runs/:filename/categories",
    (c4) => withProject(c4, handleRunCategories)
  );
  app2.get(
    "/api/projects/:projectId/runs/:filename/categories/:category/suites",
    (c4) => withProject(c4, handleCategorySuites)
  );
  app2.get(
    "/api/projects/:projectId/runs/:filename/evals/:evalId",
    (c4) => withProject(c4, handleEvalDetail)
  );
  app2.get(
    "/api/projects/:projectId/runs/:filename/evals/:evalId/trace-session",
    (c4) => withProject(c4, handleEvalTraceSession)
  );
  app2.get(
    "/api/projects/:projectId/runs/:filename/evals/:evalId/transcript",
    (c4) => withProject(c4, handleEvalTranscript)
  );
  app2.get(
    "/api/projects/:projectId/runs/:filename/evals/:evalId/files",
    (c4) => withProject(c4, handleEvalFiles)
  );
  app2.get(
    "/api/projects/:projectId/runs/:filename/evals/:evalId/files/*",
    (c4) => withProject(c4, handleEvalFileContent)
  );
  app2.get("/api/projects/:projectId/tags", (c4) => withProject(c4, handleTags));
  app2.get("/api/projects/:projectId/experiments", (c4) => withProject(c4, handleExperiments));
  app2.get("/api/projects/:projectId/compare", (c4) => withProject(c4, handleCompare));
  app2.get("/api/projects/:projectId/targets", (c4) => withProject(c4, handleTargets));
  registerEvalRoutes(
    app2,
    (c4) => {
      const projectId = c4.req.param("projectId");
      if (projectId) {
        const project = getProject(projectId);
        if (project) return project.path;
      }
      return searchDir;
    },
    { readOnly }
  );
  const studioDistPath = options?.studioDir ?? resolveStudioDistDir();
  if (!studioDistPath || !existsSync17(path27.join(studioDistPath, "index.html"))) {
    throw new Error(
      'Dashboard dist not found. Run "bun run build" in apps/dashboard/ to build the SPA.'
    );
  }
  app2.get("/", (c4) => {
    const indexPath = path27.join(studioDistPath, "index.html");
    if (existsSync17(indexPath)) return c4.html(readFileSync14(indexPath, "utf8"));
    return c4.notFound();
  });
  app2.get("/assets/*", (c4) => {
    const assetPath = c4.req.path;
    const filePath = path27.join(studioDistPath, assetPath);
    if (!existsSync17(filePath)) return c4.notFound();
    const content = readFileSync14(filePath);
    const ext = path27.extname(filePath);
    const mimeTypes = {
      ".js": "application/javascript",
      ".css": "text/css",
      ".html": "text/html",
      ".json": "application/json",
      ".svg": "image/svg+xml",
      ".png": "image/png",
      ".woff2": "font/woff2",
      ".woff": "font/woff"
    };
    const contentType = mimeTypes[ext] ?? "application/octet-stream";
    return new Response(content, {
      headers: {
        "Content-Type": contentType,
        "Cache-Control": "public, max-age=31536000, immutable"
      }
    });
  });
  app2.get("*", (c4) => {
    if (c4.req.path.startsWith("/api/")) return c4.json({ error: "Not found" }, 404);
    const indexPath = path27.join(studioDistPath, "index.html");
    if (existsSync17(indexPath)) return c4.html(readFileSync14(indexPath, "utf8"));
    return c4.notFound();
  });
  return app2;
}
function resolveStudioDistDir() {
  const currentDir = typeof __dirname !== "undefined" ? __dirname : path27.dirname(fileURLToPath3(import.meta.url));
  const candidates = [
    // From src/commands/results/ → sibling apps/dashboard/dist
    path27.resolve(currentDir, "../../../../dashboard/dist"),
    // From dist/ → sibling apps/dashboard/dist (monorepo dev)
    path27.resolve(currentDir, "../../dashboard/dist"),
    // Bundled inside CLI dist (published package: dist/dashboard/)
    path27.resolve(currentDir, "dashboard"),
    // From dist/ in monorepo root context
    path27.resolve(currentDir, "../../../apps/dashboard/dist")
  ];
  for (const candidate of candidates) {
    if (existsSync17(candidate) && existsSync17(path27.join(candidate, "index.html"))) {
      return candidate;
    }
  }
  return void 0;
}
var resultsServeCommand = command({
  name: "dashboard",
  description: "Start AgentV Dashboard - the zero-infra local viewer for AgentV-owned result artifacts",
  args: {
    source: positional({
      type: optional(string),
      displayName: "source",
      description: "Legacy direct run source (unsupported); use --dir <project-dir> or results: config"
    }),
    port: option({
      type: optional(number),
      long: "port",
      short: "p",
      description: "Port to listen on (flag \u2192 PORT env var \u2192 3117)"
    }),
    dir: option({
      type: optional(string),
      long: "dir",
      short: "d",
      description: "Working directory (default: current directory)"
    }),
    single: flag({
      long: "single",
      description: "Force single-project dashboard mode"
    }),
    add: option({
      type: optional(string),
      long: "add",
      description: "Register a project by path"
    }),
    remove: option({
      type: optional(string),
      long: "remove",
      description: "Unregister a project by ID"
    }),
    readOnly: flag({
      long: "read-only",
      description: "Disable write operations and launch Dashboard in read-only leaderboard mode"
    })
  },
  handler: async ({ source, port, dir, single, add, remove, readOnly }) => {
    const cwd = dir ?? process.cwd();
    const listenPort = port ?? (process.env.PORT ? Number(process.env.PORT) : 3117);
    if (add) {
      try {
        const entry = addProject(add);
        console.log(`Registered project: ${entry.id} at ${entry.path}`);
      } catch (err2) {
        console.error(`Error: ${err2.message}`);
        process.exit(1);
      }
      return;
    }
    if (remove) {
      const removed = removeProject(remove);
      if (removed) {
        console.log(`Unregistered project: ${remove}`);
      } else {
        console.error(`Project not found: ${remove}`);
        process.exit(1);
      }
      return;
    }
    const repoRoot = await findRepoRoot(cwd);
    const yamlConfig = await loadConfig(path27.join(cwd, "_"), repoRoot);
    if (yamlConfig?.required_version) {
      await enforceRequiredVersion(yamlConfig.required_version);
    }
    const { currentProjectId } = bootstrapCurrentProject(cwd, { single });
    const registry = loadProjectRegistry();
    const { projectDashboard } = resolveDashboardMode(registry.projects.length, { single });
    syncProjects(registry.projects).catch(
      (err2) => console.error("Background project sync failed:", err2)
    );
    try {
      let results = [];
      let sourceFile;
      if (source) {
        sourceFile = await resolveSourceFile2(source, cwd);
        results = loadManifestResults(sourceFile, { hydrateTranscriptTrace: false });
      } else {
        const cache = await loadRunCache(cwd);
        const cachedFile = cache ? resolveRunCacheFile(cache) : "";
        if (cachedFile && existsSync17(cachedFile) && relativeRunPathFromCwd(cwd, path27.dirname(cachedFile))) {
          sourceFile = cachedFile;
          results = loadManifestResults(cachedFile, { hydrateTranscriptTrace: false });
        } else {
          const metas = listResultFiles(cwd, 1);
          if (metas.length > 0) {
            sourceFile = metas[0].path;
            results = loadManifestResults(metas[0].path, { hydrateTranscriptTrace: false });
          }
        }
      }
      const resultDir = sourceFile ? path27.dirname(path27.resolve(sourceFile)) : cwd;
      const app2 = createApp(results, resultDir, cwd, sourceFile, {
        readOnly,
        projectDashboard,
        currentProjectId
      });
      if (projectDashboard) {
        console.log(`Project dashboard: ${registry.projects.length} project(s) registered`);
        if (currentProjectId) {
          console.log(`Default project: ${currentProjectId}`);
        }
      } else if (results.length > 0 && sourceFile) {
        console.log(`Serving ${results.length} result(s) from ${sourceFile}`);
      } else {
        console.log("No results found. Dashboard will show an empty state.");
        console.log("Run an evaluation to see results: agentv eval <eval-file>");
      }
      console.log(`Dashboard: http://localhost:${listenPort}`);
      console.log(`Projects API: http://localhost:${listenPort}/api/projects`);
      console.log("Press Ctrl+C to stop");
      const { serve: startServer } = await import("@hono/node-server");
      startServer({
        fetch: app2.fetch,
        port: listenPort
      });
      await new Promise(() => {
      });
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
  }
});

// src/commands/runs/rerun.ts
import { constants } from "node:fs";
import { access, readFile as readFile8 } from "node:fs/promises";
import path28 from "node:path";
import { config as loadDotenv } from "dotenv";
var TASK_EVAL_FILENAME = "EVAL.yaml";
var TASK_TARGETS_FILENAME = "targets.yaml";
var ENV_REF_PATTERN = /\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
function isRecord4(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function displayRecord(record) {
  return `${record.test_id ?? "unknown"}@${record.target ?? "unknown"}`;
}
function resolveSourcePath(cwd, source) {
  return path28.isAbsolute(source) ? source : path28.resolve(cwd, source);
}
function resolveRelativeRunPath(runDir, relativePath) {
  if (!relativePath || relativePath.trim().length === 0) {
    return void 0;
  }
  return path28.resolve(runDir, relativePath);
}
async function ensureFile(filePath, label) {
  try {
    await access(filePath, constants.F_OK);
  } catch {
    throw new Error(`${label} not found: ${filePath}`);
  }
}
function matchesAny(value, patterns) {
  return patterns.length === 0 || patterns.some((pattern) => matchesGlob(value, pattern));
}
function matchesGlob(value, pattern) {
  let source = "";
  for (const char of pattern) {
    if (char === "*") {
      source += ".*";
    } else if (char === "?") {
      source += ".";
    } else {
      source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`).test(value);
}
function stringArray(value) {
  return Array.isArray(value) ? value.filter((entry) => typeof entry === "string" && entry.length > 0) : [];
}
function readExecutionTarget(parsedEval) {
  if (!isRecord4(parsedEval)) {
    return void 0;
  }
  const execution = parsedEval.execution;
  if (isRecord4(execution) && typeof execution.target === "string" && execution.target.length > 0) {
    return execution.target;
  }
  return typeof parsedEval.target === "string" && parsedEval.target.length > 0 ? parsedEval.target : void 0;
}
async function readTaskTarget(evalPath, fallback) {
  const raw = await readFile8(evalPath, "utf8");
  return readExecutionTarget(parseYamlValue(raw)) ?? fallback;
}
async function readTargetDefinitions2(targetsPath) {
  const parsed = parseYamlValue(await readFile8(targetsPath, "utf8"));
  if (!isRecord4(parsed) || !Array.isArray(parsed.targets)) {
    throw new Error(`Targets file is missing a top-level targets array: ${targetsPath}`);
  }
  return parsed.targets.filter(isRecord4);
}
function targetName(definition) {
  if (typeof definition.id === "string" && definition.id.trim().length > 0) {
    return definition.id.trim();
  }
  if (typeof definition.label === "string" && definition.label.trim().length > 0) {
    return definition.label.trim();
  }
  return typeof definition.name === "string" && definition.name.trim().length > 0 ? definition.name.trim() : void 0;
}
function resolveWholeEnvReference(value) {
  if (typeof value !== "string") {
    return void 0;
  }
  const match = value.trim().match(/^\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/);
  if (!match) {
    return value.trim().length > 0 ? value.trim() : void 0;
  }
  const resolved = process.env[match[1]];
  return resolved && resolved.trim().length > 0 ? resolved.trim() : void 0;
}
function referencedTargetNames(definition) {
  const names = [];
  for (const key of ["use_target", "grader_target"]) {
    const resolved = resolveWholeEnvReference(definition[key]);
    if (resolved && !resolved.includes("${{")) {
      names.push(resolved);
    }
  }
  const fallbackTargets = definition.fallback_targets;
  if (Array.isArray(fallbackTargets)) {
    for (const entry of fallbackTargets) {
      const resolved = resolveWholeEnvReference(entry);
      if (resolved && !resolved.includes("${{")) {
        names.push(resolved);
      }
    }
  }
  return names;
}
function collectEnvRefs(value, names = /* @__PURE__ */ new Set()) {
  if (typeof value === "string") {
    for (const match of value.matchAll(ENV_REF_PATTERN)) {
      if (match[1]) {
        names.add(match[1]);
      }
    }
    return names;
  }
  if (Array.isArray(value)) {
    for (const entry of value) {
      collectEnvRefs(entry, names);
    }
    return names;
  }
  if (isRecord4(value)) {
    for (const [key, entry] of Object.entries(value)) {
      if (key === "required_env") {
        for (const required of stringArray(entry)) {
          names.add(required);
        }
      }
      collectEnvRefs(entry, names);
    }
  }
  return names;
}
async function validateTargetFile(targetsPath, targetNames, label) {
  const definitions = await readTargetDefinitions2(targetsPath);
  const byName = /* @__PURE__ */ new Map();
  for (const definition of definitions) {
    const name = targetName(definition);
    if (name) {
      byName.set(name, definition);
    }
  }
  const missingTargets = [...new Set(targetNames)].filter((name) => !byName.has(name));
  if (missingTargets.length > 0) {
    throw new Error(
      `${label} is incompatible: ${targetsPath} does not define target(s): ${missingTargets.join(
        ", "
      )}`
    );
  }
  const envRefs = /* @__PURE__ */ new Set();
  const seenTargets = /* @__PURE__ */ new Set();
  const visit = (name) => {
    if (seenTargets.has(name)) {
      return;
    }
    const definition = byName.get(name);
    if (!definition) {
      return;
    }
    seenTargets.add(name);
    collectEnvRefs(definition, envRefs);
    for (const referencedName of referencedTargetNames(definition)) {
      visit(referencedName);
    }
  };
  for (const name of targetNames) {
    visit(name);
  }
  const missingEnv = [...envRefs].filter((name) => {
    const value = process.env[name];
    return value === void 0 || value.trim().length === 0;
  });
  if (missingEnv.length > 0) {
    throw new Error(
      `Missing environment variable(s) required by ${targetsPath}: ${missingEnv.join(
        ", "
      )}. Provide --env-file <path> or export them before rerun.`
    );
  }
}
function isInsideOrSame(root, candidate) {
  const relative3 = path28.relative(path28.resolve(root), path28.resolve(candidate));
  return relative3 === "" || !relative3.startsWith("..") && !path28.isAbsolute(relative3);
}
function forbiddenOutputRoots(sourceRunDir, selected) {
  return [
    path28.resolve(sourceRunDir),
    ...selected.flatMap((bundle) => [path28.resolve(bundle.resultDir), path28.resolve(bundle.testDir)])
  ];
}
function assertOutputIsSeparate(outputDir, roots) {
  const forbiddenRoot = roots.find((root) => isInsideOrSame(root, outputDir));
  if (!forbiddenRoot) {
    return;
  }
  throw new Error(
    `Refusing to write rerun output inside the source bundle. Output: ${outputDir}; source: ${forbiddenRoot}`
  );
}
function defaultOutputDir(cwd, sourceRunDir, selected, experiment) {
  const roots = forbiddenOutputRoots(sourceRunDir, selected);
  const candidate = buildDefaultRunDir(cwd, experiment ?? "rerun");
  if (!roots.some((root) => isInsideOrSame(root, candidate))) {
    return candidate;
  }
  return path28.join(path28.dirname(path28.resolve(sourceRunDir)), `rerun-${createRunDirName()}`);
}
async function loadEnvFile2(envFile, cwd, verbose) {
  if (!envFile) {
    return;
  }
  const resolved = path28.isAbsolute(envFile) ? envFile : path28.resolve(cwd, envFile);
  await ensureFile(resolved, "Environment file");
  const loaded = loadDotenv({ path: resolved, override: false });
  if (loaded.error) {
    throw loaded.error;
  }
  if (verbose) {
    console.log(`Loaded environment from: ${resolved}`);
  }
}
async function loadSelectedTaskBundles(options) {
  const content = await readFile8(options.indexPath, "utf8");
  const records = parseResultManifest(content);
  if (records.length === 0) {
    throw new Error(`Run manifest contains no result rows: ${options.indexPath}`);
  }
  const selected = [];
  for (const record of records) {
    const testId = record.test_id ?? "unknown";
    const sourceTarget = record.target ?? "unknown";
    if (!matchesAny(testId, options.testIds) || !matchesAny(sourceTarget, options.sourceTargets)) {
      continue;
    }
    const recordLabel = displayRecord(record);
    const bundleDir = record.test_dir ?? record.task_dir;
    const evalPath = resolveRelativeRunPath(options.sourceRunDir, record.eval_path) ?? resolveRelativeRunPath(
      options.sourceRunDir,
      bundleDir && `${bundleDir}/${TASK_EVAL_FILENAME}`
    );
    const targetsPath = resolveRelativeRunPath(options.sourceRunDir, record.targets_path) ?? resolveRelativeRunPath(
      options.sourceRunDir,
      bundleDir && `${bundleDir}/${TASK_TARGETS_FILENAME}`
    );
    const testDir = resolveRelativeRunPath(options.sourceRunDir, bundleDir) ?? (evalPath ? path28.dirname(evalPath) : void 0);
    const resultDir = resolveRelativeRunPath(options.sourceRunDir, record.result_dir) ?? (testDir ? path28.dirname(testDir) : void 0);
    if (!evalPath || !targetsPath || !testDir || !resultDir) {
      throw new Error(
        `Selected result ${recordLabel} is missing test bundle paths. Re-run requires test/EVAL.yaml and test/targets.yaml.`
      );
    }
    await ensureFile(evalPath, `Test eval for ${recordLabel}`);
    await ensureFile(targetsPath, `Test targets for ${recordLabel}`);
    const taskTarget = await readTaskTarget(evalPath, sourceTarget);
    selected.push({
      record,
      testId,
      sourceTarget,
      resultDir,
      testDir,
      evalPath,
      targetsPath,
      taskTarget
    });
  }
  if (selected.length === 0) {
    throw new Error(
      "No captured test bundles matched the provided --test-id/--source-target filters."
    );
  }
  return selected;
}
function buildSourceMetadataByEvalFile(sourceRunDir, indexPath, selected) {
  return new Map(
    selected.map((bundle) => [
      path28.resolve(bundle.evalPath),
      {
        rerunSource: {
          mode: "rerun",
          sourceRunDir: path28.resolve(sourceRunDir),
          sourceIndexPath: path28.resolve(indexPath),
          sourceResultDir: path28.resolve(bundle.resultDir),
          sourceTestDir: path28.resolve(bundle.testDir),
          sourceTestId: bundle.testId,
          sourceTarget: bundle.sourceTarget,
          sourceTimestamp: bundle.record.timestamp
        }
      }
    ])
  );
}
var runsRerunCommand = command({
  name: "rerun",
  description: "Rerun captured test bundles with local target environment",
  args: {
    runDir: positional({
      type: string,
      displayName: "run-dir",
      description: "Run workspace directory or run manifest containing test bundles"
    }),
    testId: multioption({
      type: array(string),
      long: "test-id",
      description: "Only rerun captured test ID(s); glob supported, repeatable"
    }),
    sourceTarget: multioption({
      type: array(string),
      long: "source-target",
      description: "Only rerun captured source target(s); glob supported, repeatable"
    }),
    target: multioption({
      type: array(string),
      long: "target",
      description: "Override target name(s) for the new eval run"
    }),
    targets: option({
      type: optional(string),
      long: "targets",
      description: "Path to replacement targets.yaml for the new eval run"
    }),
    envFile: option({
      type: optional(string),
      long: "env-file",
      description: "Load local environment variables from a dotenv file before rerun"
    }),
    output: option({
      type: optional(string),
      long: "output",
      short: "o",
      description: "Artifact directory for the new rerun output"
    }),
    experiment: option({
      type: optional(string),
      long: "experiment",
      description: "Experiment label for default rerun output (default: rerun)"
    }),
    workers: option({
      type: optional(number),
      long: "workers",
      description: "Number of parallel test cases within each task eval file"
    }),
    dryRun: flag({
      long: "dry-run",
      description: "Use mock provider responses instead of real provider calls"
    }),
    verbose: flag({
      long: "verbose",
      description: "Enable verbose logging"
    })
  },
  handler: async (args) => {
    const cwd = process.cwd();
    const indexPath = resolveRunManifestPath(resolveSourcePath(cwd, args.runDir));
    const sourceRunDir = path28.dirname(indexPath);
    await loadEnvFile2(args.envFile, cwd, args.verbose);
    const selected = await loadSelectedTaskBundles({
      indexPath,
      sourceRunDir,
      testIds: args.testId,
      sourceTargets: args.sourceTarget
    });
    const targetOverrides = args.target;
    const outputDir = args.output ? path28.resolve(cwd, args.output) : defaultOutputDir(cwd, sourceRunDir, selected, args.experiment);
    assertOutputIsSeparate(outputDir, forbiddenOutputRoots(sourceRunDir, selected));
    if (args.targets) {
      const overrideTargetsPath = path28.resolve(cwd, args.targets);
      await ensureFile(overrideTargetsPath, "Target override");
      const targetNames = targetOverrides.length > 0 ? targetOverrides : selected.map((bundle) => bundle.taskTarget);
      await validateTargetFile(overrideTargetsPath, targetNames, "Target override");
    } else {
      const targetNamesByFile = /* @__PURE__ */ new Map();
      for (const bundle of selected) {
        const targetNames = targetOverrides.length > 0 ? targetOverrides : [bundle.taskTarget];
        const names = targetNamesByFile.get(bundle.targetsPath) ?? /* @__PURE__ */ new Set();
        for (const targetName2 of targetNames) {
          names.add(targetName2);
        }
        targetNamesByFile.set(bundle.targetsPath, names);
      }
      for (const [targetsPath, names] of targetNamesByFile.entries()) {
        await validateTargetFile(targetsPath, [...names], "Test bundle targets");
      }
    }
    console.log(`Rerunning ${selected.length} captured test bundle(s) from: ${sourceRunDir}`);
    console.log(`Rerun output directory: ${outputDir}`);
    const result = await runEvalCommand({
      testFiles: selected.map((bundle) => bundle.evalPath),
      rawOptions: {
        target: targetOverrides,
        targets: args.targets ? path28.resolve(cwd, args.targets) : void 0,
        output: outputDir,
        experiment: args.experiment ?? "rerun",
        workers: args.workers,
        dryRun: args.dryRun,
        verbose: args.verbose,
        sourceMetadataByEvalFile: buildSourceMetadataByEvalFile(sourceRunDir, indexPath, selected)
      }
    });
    if (result?.allExecutionErrors) {
      process.exit(2);
    }
    if (result?.budgetExceeded || result?.thresholdFailed) {
      process.exit(1);
    }
  }
});

// src/commands/runs/index.ts
var runsCommand = subcommands({
  name: "runs",
  description: "Operate on captured run workspaces",
  cmds: {
    rerun: runsRerunCommand
  }
});

// src/self-update.ts
import { spawn as spawn3 } from "node:child_process";
import { existsSync as existsSync18 } from "node:fs";
import { get } from "node:https";
import { basename, dirname as dirname3, join as join5, win32 } from "node:path";
var NPM_REGISTRY_BASE = "https://registry.npmjs.org/agentv/";
function getDistTagForVersion(version) {
  return version.includes("-") ? "next" : "latest";
}
function detectPackageManagerFromPath(scriptPath) {
  if (scriptPath.includes(".bun")) {
    return "bun";
  }
  return "npm";
}
function detectPackageManager() {
  return detectPackageManagerFromPath(process.argv[1] ?? "");
}
function detectInstallScopeFromPath(scriptPath, cwd = process.cwd()) {
  const normalizedScriptPath = scriptPath.replace(/\\/g, "/");
  const normalizedCwd = cwd.replace(/\\/g, "/");
  if (!normalizedScriptPath.includes("/node_modules/")) {
    return "global";
  }
  if (normalizedScriptPath.includes("/.npm/_npx/") || normalizedScriptPath.includes("/npm-cache/_npx/")) {
    return "local";
  }
  const packageRoot = normalizedScriptPath.split("/node_modules/")[0];
  if (!packageRoot) {
    return "global";
  }
  const scriptPathComparable = process.platform === "win32" ? normalizedScriptPath.toLowerCase() : normalizedScriptPath;
  const cwdComparable = process.platform === "win32" ? normalizedCwd.toLowerCase() : normalizedCwd;
  const packageRootComparable = process.platform === "win32" ? packageRoot.toLowerCase() : packageRoot;
  const projectOwnsPackage = cwdComparable === packageRootComparable || cwdComparable.startsWith(`${packageRootComparable}/`);
  return projectOwnsPackage ? "local" : "global";
}
function detectInstallScope() {
  return detectInstallScopeFromPath(process.argv[1] ?? "");
}
function runCommand2(cmd, args) {
  return new Promise((resolve3, reject) => {
    const child = spawn3(cmd, args, { stdio: ["inherit", "pipe", "inherit"] });
    let stdout = "";
    child.stdout?.on("data", (data) => {
      process.stdout.write(data);
      stdout += data.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve3({ exitCode: code ?? 1, stdout }));
  });
}
function fetchLatestVersion(distTag = "latest") {
  return new Promise((resolve3) => {
    const req = get(`${NPM_REGISTRY_BASE}${distTag}`, { timeout: 5e3 }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve3(null);
        return;
      }
      let body = "";
      res.on("data", (chunk) => {
        body += chunk.toString();
      });
      res.on("end", () => {
        try {
          const version = JSON.parse(body).version;
          resolve3(typeof version === "string" ? version : null);
        } catch {
          resolve3(null);
        }
      });
    });
    req.on("error", () => resolve3(null));
    req.on("timeout", () => {
      req.destroy();
      resolve3(null);
    });
  });
}
function getInstallArgs(pm, versionSpec, scope) {
  const pkg = `agentv@${versionSpec}`;
  const baseCmd = pm === "npm" ? "install" : "add";
  return scope === "global" ? [baseCmd, "-g", pkg] : [baseCmd, pkg];
}
function findBundledNpmCli(execPath, platform, exists) {
  const pathApi = platform === "win32" ? win32 : { dirname: dirname3, join: join5 };
  const execDir = pathApi.dirname(execPath);
  const candidates = platform === "win32" ? [pathApi.join(execDir, "node_modules", "npm", "bin", "npm-cli.js")] : [
    pathApi.join(execDir, "..", "lib", "node_modules", "npm", "bin", "npm-cli.js"),
    pathApi.join(execDir, "node_modules", "npm", "bin", "npm-cli.js")
  ];
  return candidates.find((candidate) => exists(candidate));
}
function resolvePackageManagerCommand(pm, args, options) {
  const execPath = options?.execPath ?? process.execPath;
  const platform = options?.platform ?? process.platform;
  const exists = options?.exists ?? existsSync18;
  const pathApi = platform === "win32" ? win32 : { basename };
  if (pm === "bun") {
    const runtimeName = pathApi.basename(execPath).toLowerCase();
    if ((runtimeName === "bun" || runtimeName === "bun.exe") && exists(execPath)) {
      return { cmd: execPath, args };
    }
    return { cmd: "bun", args };
  }
  const npmCliPath = findBundledNpmCli(execPath, platform, exists);
  if (npmCliPath) {
    return { cmd: execPath, args: [npmCliPath, ...args] };
  }
  return { cmd: "npm", args };
}
async function performSelfUpdate(options) {
  const pm = options?.pm ?? detectPackageManager();
  const currentVersion = options?.currentVersion ?? "unknown";
  const versionSpec = options?.versionRange ?? getDistTagForVersion(currentVersion === "unknown" ? "" : currentVersion);
  const scope = options?.scope ?? detectInstallScope();
  const args = getInstallArgs(pm, versionSpec, scope);
  const command2 = resolvePackageManagerCommand(pm, args);
  try {
    const result = await runCommand2(command2.cmd, command2.args);
    if (result.exitCode !== 0) {
      return { success: false, currentVersion, scope };
    }
    let newVersion;
    try {
      const versionResult = await runCommand2("agentv", ["--version"]);
      newVersion = versionResult.stdout.trim();
    } catch {
    }
    return { success: true, currentVersion, newVersion, scope };
  } catch (error) {
    if (error instanceof Error) {
      if (error.message.includes("ENOENT") || error.message.includes("not found")) {
        const alternative = pm === "npm" ? "bun" : "npm";
        console.error(`Error: ${pm} not found. Try using --${alternative} flag.`);
      } else {
        console.error(`Error: ${error.message}`);
      }
    }
    return { success: false, currentVersion, scope };
  }
}

// src/commands/self/index.ts
var updateCommand = command({
  name: "update",
  description: "Update agentv to the latest version",
  args: {
    npm: flag({ long: "npm", description: "Force update using npm" }),
    bun: flag({ long: "bun", description: "Force update using bun" })
  },
  handler: async ({ npm, bun }) => {
    if (npm && bun) {
      console.error("Error: Cannot specify both --npm and --bun");
      process.exit(1);
    }
    let pm;
    if (npm) {
      pm = "npm";
    } else if (bun) {
      pm = "bun";
    } else {
      pm = detectPackageManager();
    }
    const currentVersion = package_default.version;
    const distTag = getDistTagForVersion(currentVersion);
    console.log(`Current version: ${currentVersion}`);
    console.log("Checking for updates...");
    const latestVersion = await fetchLatestVersion(distTag);
    if (latestVersion && latestVersion === currentVersion) {
      console.log(`Already up to date (${currentVersion}).`);
      return;
    }
    if (latestVersion) {
      console.log(`Update available: ${currentVersion} \u2192 ${latestVersion}`);
    }
    const scope = detectInstallScope();
    const scopeLabel = scope === "local" ? "local project install" : "global install";
    console.log(`Updating agentv using ${pm} (${scopeLabel})...
`);
    const result = await performSelfUpdate({ pm, currentVersion, versionRange: distTag, scope });
    if (!result.success) {
      console.error("\nUpdate failed.");
      process.exit(1);
    }
    if (result.newVersion) {
      console.log(`
Update complete: ${currentVersion} \u2192 ${result.newVersion}`);
    } else {
      console.log("\nUpdate complete.");
    }
  }
});
var selfCommand = subcommands({
  name: "self",
  description: "Manage the agentv installation",
  cmds: {
    update: updateCommand
  }
});

// src/commands/skills/index.ts
import { existsSync as existsSync19, readFileSync as readFileSync15, readdirSync as readdirSync5 } from "node:fs";
import path29 from "node:path";
import { fileURLToPath as fileURLToPath4 } from "node:url";
function isValidSkillsDir(dir) {
  if (!existsSync19(dir)) return false;
  try {
    return readdirSync5(dir, { withFileTypes: true }).some(
      (e) => e.isDirectory() && existsSync19(path29.join(dir, e.name, "SKILL.md"))
    );
  } catch {
    return false;
  }
}
function findSkillsDir() {
  const selfFile = fileURLToPath4(import.meta.url);
  let dir = path29.dirname(selfFile);
  for (let i = 0; i < 6; i++) {
    const distCandidate = path29.join(dir, "dist", "skills");
    if (isValidSkillsDir(distCandidate)) return distCandidate;
    const repoRootCandidate = path29.join(dir, "skills-data");
    if (isValidSkillsDir(repoRootCandidate)) return repoRootCandidate;
    const legacyCandidate = path29.join(dir, "skills");
    if (isValidSkillsDir(legacyCandidate)) return legacyCandidate;
    dir = path29.dirname(dir);
  }
  return null;
}
function requireSkillsDir() {
  const dir = findSkillsDir();
  if (!dir) {
    console.error(
      "Error: bundled skills directory not found. This is a build issue \u2014 please reinstall agentv."
    );
    process.exit(1);
  }
  return dir;
}
function listSkillNames(skillsDir) {
  if (!existsSync19(skillsDir)) return [];
  return readdirSync5(skillsDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
}
function readSkillFile(skillDir, relPath) {
  const full = path29.join(skillDir, relPath);
  if (!existsSync19(full)) return null;
  return readFileSync15(full, "utf-8");
}
function collectDir(dir, prefix = "") {
  const result = {};
  if (!existsSync19(dir)) return result;
  for (const entry of readdirSync5(dir, { withFileTypes: true })) {
    const relPath = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      Object.assign(result, collectDir(path29.join(dir, entry.name), relPath));
    } else {
      result[relPath] = readFileSync15(path29.join(dir, entry.name), "utf-8");
    }
  }
  return result;
}
function listSkillSubdirs(skillDir) {
  if (!existsSync19(skillDir)) return [];
  return readdirSync5(skillDir, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith(".")).map((e) => e.name).sort();
}
function readSkill(skillsDir, name, full) {
  const skillDir = path29.join(skillsDir, name);
  if (!existsSync19(skillDir)) return null;
  const content = readSkillFile(skillDir, "SKILL.md");
  if (content === null) return null;
  if (!full) return { name, content };
  const files = {};
  for (const sub of listSkillSubdirs(skillDir)) {
    const subDir = path29.join(skillDir, sub);
    const collected = collectDir(subDir, sub);
    Object.assign(files, collected);
  }
  return { name, content, files: Object.keys(files).length > 0 ? files : void 0 };
}
function findRefFile(skillDir, refName) {
  const candidates = refName.endsWith(".md") ? [refName] : [refName, `${refName}.md`];
  for (const sub of listSkillSubdirs(skillDir)) {
    for (const candidate of candidates) {
      const filePath = path29.join(skillDir, sub, candidate);
      if (existsSync19(filePath)) {
        return { relPath: `${sub}/${candidate}`, content: readFileSync15(filePath, "utf-8") };
      }
    }
  }
  for (const candidate of candidates) {
    const filePath = path29.join(skillDir, candidate);
    if (existsSync19(filePath)) {
      return { relPath: candidate, content: readFileSync15(filePath, "utf-8") };
    }
  }
  return null;
}
function listRefFiles(skillDir) {
  const out = [];
  for (const sub of listSkillSubdirs(skillDir)) {
    const subDir = path29.join(skillDir, sub);
    for (const entry of readdirSync5(subDir, { withFileTypes: true })) {
      if (entry.isFile()) out.push(`${sub}/${entry.name}`);
    }
  }
  return out.sort();
}
function printSkill(skill, json) {
  if (json) {
    process.stdout.write(`${JSON.stringify({ success: true, data: [skill] })}
`);
    return;
  }
  process.stdout.write(skill.content);
  if (!skill.content.endsWith("\n")) process.stdout.write("\n");
  if (skill.files) {
    for (const [relPath, content] of Object.entries(skill.files)) {
      process.stdout.write(`
--- ${relPath} ---
`);
      process.stdout.write(content);
      if (!content.endsWith("\n")) process.stdout.write("\n");
    }
  }
}
var skillsListCommand = command({
  name: "list",
  description: "List available bundled skills",
  args: {
    json: flag({ long: "json", description: "Output as JSON" })
  },
  handler: ({ json }) => {
    const skillsDir = requireSkillsDir();
    const names = listSkillNames(skillsDir);
    if (json) {
      process.stdout.write(`${JSON.stringify({ success: true, data: names })}
`);
    } else {
      for (const name of names) {
        console.log(name);
      }
    }
  }
});
var skillsGetCommand = command({
  name: "get",
  description: "Get skill content by name (or --all for all skills)",
  args: {
    name: positional({ type: optional(string), displayName: "name", description: "Skill name" }),
    all: flag({ long: "all", description: "Get all skills" }),
    full: flag({
      long: "full",
      description: "Also include all files under subdirectories (references/, scripts/, agents/, etc.)"
    }),
    ref: option({
      type: optional(string),
      long: "ref",
      description: "Load a single file from the skill by relative path (searches all subdirectories). Takes precedence over --full."
    }),
    json: flag({ long: "json", description: "Output as JSON" })
  },
  handler: ({ name, all, full, ref, json }) => {
    const skillsDir = requireSkillsDir();
    if (ref !== void 0 && all) {
      const msg = "--ref is incompatible with --all";
      if (json) {
        process.stdout.write(`${JSON.stringify({ success: false, error: msg })}
`);
      } else {
        console.error(`Error: ${msg}`);
      }
      process.exit(1);
    }
    if (ref !== void 0) {
      if (name === void 0) {
        const msg = "--ref requires a skill name";
        if (json) {
          process.stdout.write(`${JSON.stringify({ success: false, error: msg })}
`);
        } else {
          console.error(`Error: ${msg}`);
        }
        process.exit(1);
      }
      const skillDir = path29.join(skillsDir, name);
      if (!existsSync19(skillDir)) {
        const msg = `skill '${name}' not found`;
        if (json) {
          process.stdout.write(`${JSON.stringify({ success: false, error: msg })}
`);
        } else {
          console.error(`Error: ${msg}`);
          const available = listSkillNames(skillsDir);
          if (available.length > 0) {
            console.error(`Available skills: ${available.join(", ")}`);
          }
        }
        process.exit(1);
      }
      const file = findRefFile(skillDir, ref);
      if (!file) {
        const msg = `reference '${ref}' not found in skill '${name}'`;
        if (json) {
          process.stdout.write(`${JSON.stringify({ success: false, error: msg })}
`);
        } else {
          console.error(`Error: ${msg}`);
          const available = listRefFiles(skillDir);
          if (available.length > 0) {
            console.error(`Available reference files:
  ${available.join("\n  ")}`);
          }
        }
        process.exit(1);
      }
      if (json) {
        process.stdout.write(
          `${JSON.stringify({ success: true, data: [{ name, content: file.content, files: { [file.relPath]: file.content } }] })}
`
        );
        return;
      }
      process.stdout.write(file.content);
      if (!file.content.endsWith("\n")) process.stdout.write("\n");
      return;
    }
    if (all || name === void 0) {
      const names = listSkillNames(skillsDir);
      const skills = names.map((n) => readSkill(skillsDir, n, full)).filter((s) => s !== null);
      if (json) {
        process.stdout.write(`${JSON.stringify({ success: true, data: skills })}
`);
        return;
      }
      for (const skill2 of skills) {
        if (skills.length > 1) {
          process.stdout.write(`
=== ${skill2.name} ===

`);
        }
        printSkill(skill2, false);
      }
      return;
    }
    const skill = readSkill(skillsDir, name, full);
    if (!skill) {
      if (json) {
        process.stdout.write(
          `${JSON.stringify({ success: false, error: `Skill '${name}' not found` })}
`
        );
      } else {
        console.error(`Error: skill '${name}' not found`);
        const available = listSkillNames(skillsDir);
        if (available.length > 0) {
          console.error(`Available skills: ${available.join(", ")}`);
        }
      }
      process.exit(1);
    }
    printSkill(skill, json);
  }
});
var skillsPathCommand = command({
  name: "path",
  description: "Print path to bundled skills directory (or specific skill directory)",
  args: {
    name: positional({ type: optional(string), displayName: "name", description: "Skill name" })
  },
  handler: ({ name }) => {
    const skillsDir = requireSkillsDir();
    if (name) {
      const skillDir = path29.join(skillsDir, name);
      if (!existsSync19(skillDir)) {
        console.error(`Error: skill '${name}' not found`);
        process.exit(1);
      }
      console.log(skillDir);
    } else {
      console.log(skillsDir);
    }
  }
});
var skillsCommand = subcommands({
  name: "skills",
  description: "List and retrieve bundled AgentV skills",
  cmds: {
    list: skillsListCommand,
    get: skillsGetCommand,
    path: skillsPathCommand
  }
});

// src/commands/transpile/index.ts
import { writeFileSync as writeFileSync7 } from "node:fs";
import path30 from "node:path";
var transpileCommand = command({
  name: "transpile",
  description: "Convert an EVAL.yaml file to Agent Skills evals.json format",
  args: {
    input: positional({
      type: string,
      displayName: "input",
      description: "Path to EVAL.yaml file"
    }),
    outDir: option({
      type: optional(string),
      long: "out-dir",
      short: "d",
      description: "Output directory (defaults to directory of input file)"
    }),
    stdout: flag({
      long: "stdout",
      description: "Write to stdout instead of file(s) (only valid for single-skill output)"
    })
  },
  handler: async ({ input, outDir, stdout }) => {
    let result;
    try {
      result = transpileEvalYamlFile(path30.resolve(input));
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
    for (const warning of result.warnings) {
      console.warn(`Warning: ${warning}`);
    }
    if (result.files.size === 0) {
      console.error("Error: No output produced (no tests found)");
      process.exit(1);
    }
    if (stdout) {
      if (result.files.size > 1) {
        console.error(
          "Error: --stdout is only valid when input produces a single evals.json (multi-skill input produces multiple files)"
        );
        process.exit(1);
      }
      const [file] = result.files.values();
      process.stdout.write(JSON.stringify(file, null, 2));
      process.stdout.write("\n");
      return;
    }
    const outputDir = outDir ? path30.resolve(outDir) : path30.dirname(path30.resolve(input));
    const fileNames = getOutputFilenames(result);
    for (const [skill, evalsJson] of result.files) {
      const fileName = fileNames.get(skill) ?? "evals.json";
      const outputPath = path30.join(outputDir, fileName);
      writeFileSync7(outputPath, `${JSON.stringify(evalsJson, null, 2)}
`);
      console.log(`Transpiled to ${outputPath}`);
    }
  }
});

// src/commands/trim/index.ts
import { readFileSync as readFileSync16, writeFileSync as writeFileSync8 } from "node:fs";
var trimCommand = command({
  name: "trim",
  description: "Trim evaluation results for baseline storage (strips debug/audit fields)",
  args: {
    input: positional({
      type: string,
      displayName: "input",
      description: "Path to input JSONL result file"
    }),
    out: option({
      type: optional(string),
      long: "out",
      short: "o",
      description: "Path to output JSONL file (defaults to stdout)"
    })
  },
  handler: async ({ input, out }) => {
    try {
      const content = readFileSync16(input, "utf8");
      const lines = content.trim().split("\n").filter((line) => line.trim());
      const trimmedLines = lines.map((line) => {
        const record = JSON.parse(line);
        const camel = toCamelCaseDeep(record);
        const trimmed = trimBaselineResult(camel);
        const snake = toSnakeCaseDeep(trimmed);
        return JSON.stringify(snake);
      });
      const output = `${trimmedLines.join("\n")}
`;
      if (out) {
        writeFileSync8(out, output, "utf8");
        console.error(`Trimmed ${lines.length} record(s) \u2192 ${out}`);
      } else {
        process.stdout.write(output);
      }
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
  }
});

// src/commands/validate/format-output.ts
var ANSI_RED = "\x1B[31m";
var ANSI_YELLOW = "\x1B[33m";
var ANSI_GREEN = "\x1B[32m";
var ANSI_CYAN = "\x1B[36m";
var ANSI_BOLD = "\x1B[1m";
var ANSI_RESET = "\x1B[0m";
function formatSummary2(summary, useColors) {
  const lines = [];
  lines.push("");
  lines.push(formatHeader("Validation Summary", useColors));
  lines.push("");
  for (const result of summary.results) {
    lines.push(formatFileResult(result, useColors));
  }
  lines.push("");
  lines.push(formatStats(summary, useColors));
  lines.push("");
  return lines.join("\n");
}
function formatHeader(text, useColors) {
  if (useColors) {
    return `${ANSI_BOLD}${ANSI_CYAN}${text}${ANSI_RESET}`;
  }
  return text;
}
function formatFileResult(result, useColors) {
  const lines = [];
  const status = result.valid ? "\u2713" : "\u2717";
  const statusColor = result.valid ? ANSI_GREEN : ANSI_RED;
  const statusText = useColors ? `${statusColor}${status}${ANSI_RESET}` : status;
  const fileName = result.filePath;
  lines.push(`${statusText} ${fileName}`);
  if (result.errors.length > 0) {
    for (const error of result.errors) {
      lines.push(formatError2(error, useColors));
    }
  }
  return lines.join("\n");
}
function formatError2(error, useColors) {
  const prefix = error.severity === "error" ? "  \u2717" : "  \u26A0";
  const color = error.severity === "error" ? ANSI_RED : ANSI_YELLOW;
  const coloredPrefix = useColors ? `${color}${prefix}${ANSI_RESET}` : prefix;
  const location = error.location ? ` [${error.location}]` : "";
  return `${coloredPrefix}${location} ${error.message}`;
}
function formatStats(summary, useColors) {
  const lines = [];
  const totalText = `Total files: ${summary.totalFiles}`;
  const validText = `Valid: ${summary.validFiles}`;
  const invalidText = `Invalid: ${summary.invalidFiles}`;
  const filesWithWarnings = summary.results.filter(
    (r) => r.errors.some((e) => e.severity === "warning")
  ).length;
  if (useColors) {
    lines.push(`${ANSI_BOLD}${totalText}${ANSI_RESET}`);
    lines.push(`${ANSI_GREEN}${validText}${ANSI_RESET}`);
    if (summary.invalidFiles > 0) {
      lines.push(`${ANSI_RED}${invalidText}${ANSI_RESET}`);
    } else {
      lines.push(invalidText);
    }
    if (filesWithWarnings > 0) {
      lines.push(`${ANSI_YELLOW}Files with warnings: ${filesWithWarnings}${ANSI_RESET}`);
    }
  } else {
    lines.push(totalText);
    lines.push(validText);
    lines.push(invalidText);
    if (filesWithWarnings > 0) {
      lines.push(`Files with warnings: ${filesWithWarnings}`);
    }
  }
  return lines.join("\n");
}
function isTTY() {
  return process.stdout.isTTY ?? false;
}

// src/commands/validate/validate-files.ts
import { constants as constants2 } from "node:fs";
import { access as access2, readdir as readdir4, stat as stat2 } from "node:fs/promises";
import path31 from "node:path";
import fg2 from "fast-glob";
async function validateFiles(paths) {
  const filePaths = await expandPaths(paths);
  const results = await Promise.all(filePaths.map((filePath) => validateSingleFile(filePath)));
  const validFiles = results.filter((r) => r.valid).length;
  const invalidFiles = results.filter((r) => !r.valid).length;
  return {
    totalFiles: results.length,
    validFiles,
    invalidFiles,
    results
  };
}
async function validateSingleFile(filePath) {
  const absolutePath = path31.resolve(filePath);
  if (isTypeScriptEvalConfigFileName(absolutePath)) {
    return validateTypeScriptEvalConfigFile(absolutePath);
  }
  const fileType = await detectFileType(absolutePath);
  let result;
  if (fileType === "eval") {
    result = await validateEvalFile(absolutePath);
    if (result.valid || result.errors.filter((e) => e.severity === "error").length === 0) {
      const [fileRefErrors, workspaceErrors] = await Promise.all([
        validateFileReferences(absolutePath),
        validateWorkspacePaths(absolutePath)
      ]);
      const extraErrors = [...fileRefErrors, ...workspaceErrors];
      if (extraErrors.length > 0) {
        result = {
          ...result,
          errors: [...result.errors, ...extraErrors],
          valid: result.valid && extraErrors.filter((e) => e.severity === "error").length === 0
        };
      }
    }
  } else if (fileType === "cases") {
    result = await validateCasesFile(absolutePath);
  } else if (fileType === "targets") {
    result = await validateTargetsFile(absolutePath);
  } else if (fileType === "config") {
    result = await validateConfigFile(absolutePath);
  } else {
    result = {
      valid: true,
      filePath: absolutePath,
      fileType: "unknown",
      errors: [
        {
          severity: "warning",
          filePath: absolutePath,
          message: "File type not recognized. Eval files should be named suite.yaml or end in .eval.yaml. Skipping validation."
        }
      ]
    };
  }
  return result;
}
async function expandPaths(paths) {
  const expanded = /* @__PURE__ */ new Set();
  for (const inputPath of paths) {
    const absolutePath = path31.resolve(inputPath);
    try {
      await access2(absolutePath, constants2.F_OK);
      const stats = await stat2(absolutePath);
      if (stats.isFile()) {
        if (isYamlFile(absolutePath) || isTypeScriptEvalConfigFileName(absolutePath)) {
          expanded.add(absolutePath);
        }
        continue;
      }
      if (stats.isDirectory()) {
        const evalFiles = await findEvalFiles(absolutePath);
        for (const f of evalFiles) expanded.add(f);
        continue;
      }
    } catch {
    }
    const globPattern = inputPath.includes("\\") ? inputPath.replace(/\\/g, "/") : inputPath;
    const matches = await fg2(globPattern, {
      cwd: process.cwd(),
      absolute: true,
      onlyFiles: true,
      unique: true,
      dot: false,
      followSymbolicLinks: true
    });
    const evalMatches = matches.filter((f) => isYamlFile(f) || isTypeScriptEvalConfigFileName(f));
    if (evalMatches.length === 0) {
      console.warn(
        `Warning: No eval YAML or TypeScript config files matched pattern: ${inputPath}`
      );
    }
    for (const f of evalMatches) expanded.add(path31.normalize(f));
  }
  const sorted = Array.from(expanded);
  sorted.sort();
  return sorted;
}
async function findEvalFiles(dirPath) {
  const results = [];
  try {
    const entries2 = await readdir4(dirPath, { withFileTypes: true });
    for (const entry of entries2) {
      const fullPath = path31.join(dirPath, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === "node_modules" || entry.name.startsWith(".")) {
          continue;
        }
        const subFiles = await findEvalFiles(fullPath);
        results.push(...subFiles);
      } else if (entry.isFile() && (isEvalYamlFile(entry.name) || isTypeScriptEvalConfigFileName(entry.name))) {
        results.push(fullPath);
      }
    }
  } catch (error) {
    console.warn(`Warning: Could not read directory ${dirPath}: ${error.message}`);
  }
  return results;
}
function isYamlFile(filePath) {
  const ext = path31.extname(filePath).toLowerCase();
  return ext === ".yaml" || ext === ".yml";
}
function isEvalYamlFile(filePath) {
  const lower = path31.basename(filePath).toLowerCase();
  return lower === "suite.yaml" || lower === "suite.yml" || lower.endsWith(".eval.yaml") || lower.endsWith(".eval.yml");
}

// src/commands/validate/index.ts
async function runValidateCommand(paths, maxWarnings) {
  if (paths.length === 0) {
    console.error("Error: No paths specified. Usage: agentv validate <paths...>");
    process.exit(1);
  }
  const summary = await validateFiles(paths);
  const useColors = isTTY();
  console.log(formatSummary2(summary, useColors));
  if (summary.invalidFiles > 0) {
    process.exit(1);
  }
  if (maxWarnings !== void 0) {
    const warningCount = summary.results.reduce(
      (count, r) => count + r.errors.filter((e) => e.severity === "warning").length,
      0
    );
    if (warningCount > maxWarnings) {
      console.error(
        `Found ${warningCount} warning${warningCount === 1 ? "" : "s"} (max allowed: ${maxWarnings})`
      );
      process.exit(1);
    }
  }
}
var validateCommand = command({
  name: "validate",
  description: "Validate AgentV eval, TypeScript config, and targets files",
  args: {
    paths: restPositionals({
      type: string,
      displayName: "paths",
      description: "Files or directories to validate"
    }),
    maxWarnings: option({
      type: optional(number),
      long: "max-warnings",
      description: "Maximum number of warnings allowed before failing (e.g., --max-warnings 0)"
    })
  },
  handler: async ({ paths, maxWarnings }) => {
    try {
      await runValidateCommand(paths, maxWarnings);
    } catch (error) {
      console.error(`Error: ${error.message}`);
      process.exit(1);
    }
  }
});

// src/update-check.ts
import { spawn as spawn4 } from "node:child_process";
import { readFile as readFile9 } from "node:fs/promises";
import { join as join6 } from "node:path";
var CHECK_INTERVAL_MS = 24 * 60 * 60 * 1e3;
var CONFIG_DIR = getAgentvConfigDir();
var CACHE_FILE = "version-check.json";
var NPM_REGISTRY_BASE2 = "https://registry.npmjs.org/agentv/";
async function getCachedUpdateInfo(path33) {
  const filePath = path33 ?? join6(CONFIG_DIR, CACHE_FILE);
  try {
    const raw = await readFile9(filePath, "utf-8");
    const data = JSON.parse(raw);
    if (typeof data.latestVersion === "string" && typeof data.lastCheckedAt === "string") {
      return data;
    }
    return null;
  } catch {
    return null;
  }
}
function shouldCheck(cache) {
  if (!cache) return true;
  const elapsed = Date.now() - new Date(cache.lastCheckedAt).getTime();
  return elapsed > CHECK_INTERVAL_MS;
}
function isNewer(a, b) {
  const pa = a.split(".").map((s) => Number(s.replace(/-.*$/, "")));
  const pb = b.split(".").map((s) => Number(s.replace(/-.*$/, "")));
  for (let i = 0; i < 3; i++) {
    if ((pa[i] ?? 0) > (pb[i] ?? 0)) return true;
    if ((pa[i] ?? 0) < (pb[i] ?? 0)) return false;
  }
  return false;
}
function buildNotice(currentVersion, latestVersion) {
  if (!latestVersion) return null;
  if (!isNewer(latestVersion, currentVersion)) return null;
  return `  Update available: ${currentVersion} \u2192 ${latestVersion}
  Run \`agentv self update\` to upgrade.`;
}
function backgroundUpdateCheck(distTag = "latest") {
  const dir = CONFIG_DIR;
  const filePath = join6(dir, CACHE_FILE);
  const registryUrl = `${NPM_REGISTRY_BASE2}${distTag}`;
  const script = `
    const https = require('https');
    const fs = require('fs');
    const dir = ${JSON.stringify(dir)};
    const filePath = ${JSON.stringify(filePath)};
    https.get(${JSON.stringify(registryUrl)}, { timeout: 5000 }, (res) => {
      if (res.statusCode !== 200) { res.resume(); process.exit(); }
      let body = '';
      res.on('data', (c) => body += c);
      res.on('end', () => {
        try {
          const v = JSON.parse(body).version;
          if (typeof v === 'string') {
            fs.mkdirSync(dir, { recursive: true });
            fs.writeFileSync(filePath, JSON.stringify({ latestVersion: v, lastCheckedAt: new Date().toISOString() }, null, 2));
          }
        } catch {}
        process.exit();
      });
    }).on('error', () => process.exit()).on('timeout', function() { this.destroy(); process.exit(); });
  `;
  try {
    const child = spawn4(process.execPath, ["-e", script], {
      detached: true,
      stdio: "ignore",
      windowsHide: true
    });
    child.unref();
  } catch {
  }
}
async function getUpdateNotice(currentVersion) {
  if (process.env.AGENTV_NO_UPDATE_CHECK === "1" || process.env.CI === "true") {
    return null;
  }
  const distTag = currentVersion.includes("-") ? "next" : "latest";
  const cache = await getCachedUpdateInfo();
  if (shouldCheck(cache)) {
    backgroundUpdateCheck(distTag);
  }
  return buildNotice(currentVersion, cache?.latestVersion ?? null);
}

// src/index.ts
var app = subcommands({
  name: "agentv",
  description: "AgentV CLI",
  version: package_default.version,
  cmds: {
    dashboard: resultsServeCommand,
    eval: evalCommand,
    grade: gradeCommand,
    import: importCommand,
    compare: compareCommand,
    convert: convertCommand,
    create: createCommand,
    doctor: doctorCommand,
    init: initCmdTsCommand,
    pipeline: pipelineCommand,
    prepare: prepareCommand,
    results: resultsCommand,
    runs: runsCommand,
    self: selfCommand,
    skills: skillsCommand,
    serve: resultsServeCommand,
    inspect: inspectCommand,
    trend: trendCommand,
    transpile: transpileCommand,
    trim: trimCommand,
    validate: validateCommand
  }
});
var EVAL_SUBCOMMANDS = /* @__PURE__ */ new Set(["run", "assert", "aggregate", "bundle", "vitest"]);
var VITEST_VERIFIER_RE = /(?:^|[/\\])(?:EVAL|[^/\\]+[.-](?:test|spec))\.[cm]?[jt]sx?$/i;
var TOP_LEVEL_COMMANDS = /* @__PURE__ */ new Set([
  "import",
  "inspect",
  "compare",
  "convert",
  "create",
  "dashboard",
  "doctor",
  "grade",
  "init",
  "pipeline",
  "prepare",
  "results",
  "runs",
  "self",
  "skills",
  "serve",
  "studio",
  "trend",
  "transpile",
  "trim",
  "validate"
]);
function usesDeprecatedStudioAlias(argv) {
  return argv[2] === "studio";
}
function shouldRunBeforeSessionHook(argv) {
  return !(argv[2] === "eval" && argv[3] === "vitest");
}
function inferEvalSubcommand(arg) {
  return arg && VITEST_VERIFIER_RE.test(arg) ? "vitest" : "run";
}
function preprocessArgv(argv) {
  const result = [...argv];
  if (result[2] === "studio") {
    result[2] = "dashboard";
  }
  for (let i = 0; i < result.length; i++) {
    if (result[i] === "--eval-id") {
      result[i] = "--test-id";
    } else if (result[i].startsWith("--eval-id=")) {
      result[i] = `--test-id=${result[i].slice("--eval-id=".length)}`;
    }
  }
  const evalIdx = result.indexOf("eval");
  if (evalIdx !== -1) {
    const isTopLevel = !result.slice(0, evalIdx).some((arg) => TOP_LEVEL_COMMANDS.has(arg));
    if (isTopLevel) {
      const nextArg = result[evalIdx + 1];
      const isHelp = nextArg === "--help" || nextArg === "-h";
      const isKnownSubcommand = nextArg !== void 0 && EVAL_SUBCOMMANDS.has(nextArg);
      if (!isHelp && !isKnownSubcommand) {
        result.splice(evalIdx + 1, 0, inferEvalSubcommand(nextArg));
      }
    }
  }
  return result;
}
async function runCli(argv = process.argv) {
  let updateNotice = null;
  process.on("exit", () => {
    if (updateNotice) process.stderr.write(`
${updateNotice}
`);
  });
  getUpdateNotice(package_default.version).then((n) => {
    updateNotice = n;
  });
  const processedArgv = preprocessArgv(argv);
  if (usesDeprecatedStudioAlias(argv)) {
    process.stderr.write(
      "Warning: `agentv studio` is deprecated and will be removed in a future release. Use `agentv dashboard` instead.\n"
    );
  }
  if (shouldRunBeforeSessionHook(processedArgv)) {
    const cwd = process.cwd();
    const repoRoot = await findRepoRoot(cwd);
    const sessionConfig = await loadConfig(path32.join(cwd, "_"), repoRoot);
    const configDir = sessionConfig?.configDir ?? repoRoot;
    if (sessionConfig?.env_path) {
      await loadEnvPathFiles(sessionConfig.env_path, configDir);
    }
    if (sessionConfig?.env_from) {
      await runEnvFromEntries(sessionConfig.env_from, { cwd: configDir });
    }
    const beforeSessionCommand = sessionConfig?.hooks?.before_session;
    if (beforeSessionCommand) {
      runBeforeSessionHook(beforeSessionCommand);
    }
  }
  await run(binary(app), processedArgv);
}

export {
  app,
  usesDeprecatedStudioAlias,
  shouldRunBeforeSessionHook,
  inferEvalSubcommand,
  preprocessArgv,
  runCli
};
//# sourceMappingURL=chunk-ASIGJIOJ.js.map