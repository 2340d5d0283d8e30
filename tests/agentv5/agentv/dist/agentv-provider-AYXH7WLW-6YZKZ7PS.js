import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
import {
  AgentvProvider
} from "./chunk-M7BUKBAF.js";
import "./chunk-QMRVH5ZP.js";
export {
  AgentvProvider
};
//# sourceMappingURL=agentv-provider-AYXH7WLW-6YZKZ7PS.js.map