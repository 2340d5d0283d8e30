import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
import {
  DefaultCommandExecutor,
  DockerWorkspaceProvider
} from "./chunk-PEUTJS7B.js";
import "./chunk-QMRVH5ZP.js";
export {
  DefaultCommandExecutor,
  DockerWorkspaceProvider
};
//# sourceMappingURL=docker-workspace-NNK4Z6FR-QRTIG6TM.js.map