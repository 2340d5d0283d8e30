import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
import {
  isTypeScriptEvalConfigFileName,
  loadTsEvalFile,
  loadTsEvalSuite,
  typeScriptEvalConfigGlob
} from "./chunk-ELCJ23K4.js";
import "./chunk-7BGERE6L.js";
import "./chunk-PEUTJS7B.js";
import "./chunk-M7BUKBAF.js";
import "./chunk-QMRVH5ZP.js";
export {
  isTypeScriptEvalConfigFileName,
  loadTsEvalFile,
  loadTsEvalSuite,
  typeScriptEvalConfigGlob
};
//# sourceMappingURL=ts-eval-loader-2RFVZHCT-7CZ3DCDD.js.map