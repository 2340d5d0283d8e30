import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
import {
  buildIndexArtifactEntry,
  buildResultIndexArtifact,
  writeArtifactsFromResults,
  writePerTestArtifacts
} from "./chunk-RKE7SSET.js";
import "./chunk-LXBI3SPX.js";
import {
  RESULT_INDEX_FILENAME,
  RUN_CONFIG_FILENAME,
  RUN_SUMMARY_FILENAME,
  aggregateRunDir,
  buildAggregateGradingArtifact,
  buildEvalTestTargetKey,
  buildEvaluationResultTargetKey,
  buildGradingArtifact,
  buildRunSummaryArtifact,
  buildTestTargetKey,
  buildTimingArtifact,
  deduplicateByTestIdTarget,
  parseJsonlResults,
  readRunConfigArtifact,
  writeArtifacts,
  writeInitialRunSummaryArtifact
} from "./chunk-ELCJ23K4.js";
import "./chunk-7BGERE6L.js";
import "./chunk-PEUTJS7B.js";
import "./chunk-M7BUKBAF.js";
import "./chunk-QMRVH5ZP.js";
export {
  RESULT_INDEX_FILENAME,
  RUN_CONFIG_FILENAME,
  RUN_SUMMARY_FILENAME,
  aggregateRunDir,
  buildAggregateGradingArtifact,
  buildEvalTestTargetKey,
  buildEvaluationResultTargetKey,
  buildGradingArtifact,
  buildIndexArtifactEntry,
  buildResultIndexArtifact,
  buildRunSummaryArtifact,
  buildTestTargetKey,
  buildTimingArtifact,
  deduplicateByTestIdTarget,
  parseJsonlResults,
  readRunConfigArtifact,
  writeArtifacts,
  writeArtifactsFromResults,
  writeInitialRunSummaryArtifact,
  writePerTestArtifacts
};
//# sourceMappingURL=artifact-writer-7NBCOAYC.js.map