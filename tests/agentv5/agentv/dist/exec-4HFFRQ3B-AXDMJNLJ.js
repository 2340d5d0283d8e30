import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
import {
  execFileWithStdin,
  execShellWithStdin
} from "./chunk-7BGERE6L.js";
import "./chunk-QMRVH5ZP.js";
export {
  execFileWithStdin,
  execShellWithStdin
};
//# sourceMappingURL=exec-4HFFRQ3B-AXDMJNLJ.js.map