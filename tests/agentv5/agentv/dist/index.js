import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
import {
  app,
  inferEvalSubcommand,
  preprocessArgv,
  runCli,
  shouldRunBeforeSessionHook,
  usesDeprecatedStudioAlias
} from "./chunk-ASIGJIOJ.js";
import "./chunk-LKGARI3W.js";
import "./chunk-RKE7SSET.js";
import "./chunk-LXBI3SPX.js";
import "./chunk-ELCJ23K4.js";
import "./chunk-7BGERE6L.js";
import "./chunk-PEUTJS7B.js";
import "./chunk-M7BUKBAF.js";
import "./chunk-QMRVH5ZP.js";
export {
  app,
  inferEvalSubcommand,
  preprocessArgv,
  runCli,
  shouldRunBeforeSessionHook,
  usesDeprecatedStudioAlias
};
//# sourceMappingURL=index.js.map