#!/usr/bin/env node
import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
import {
  runCli
} from "./chunk-ASIGJIOJ.js";
import "./chunk-LKGARI3W.js";
import "./chunk-RKE7SSET.js";
import "./chunk-LXBI3SPX.js";
import {
  killAllTrackedChildren
} from "./chunk-ELCJ23K4.js";
import "./chunk-7BGERE6L.js";
import "./chunk-PEUTJS7B.js";
import "./chunk-M7BUKBAF.js";
import "./chunk-QMRVH5ZP.js";

// src/cli.ts
var interrupted = false;
function installShutdown(signal, exitCode) {
  process.on(signal, () => {
    if (interrupted) {
      process.exit(1);
    }
    interrupted = true;
    killAllTrackedChildren("SIGTERM");
    setTimeout(() => process.exit(exitCode), 50);
  });
}
installShutdown("SIGINT", 130);
installShutdown("SIGTERM", 143);
runCli().then(() => {
  process.exit(0);
}).catch((error) => {
  if (error instanceof Error) {
    console.error(`Error: ${error.message}`);
    if (process.env.DEBUG) {
      console.error(error.stack);
    }
  } else {
    console.error(error);
  }
  process.exit(1);
});
//# sourceMappingURL=cli.js.map