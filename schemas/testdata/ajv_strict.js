// Compiles each JSON Schema named on the command line with ajv in strict
// mode (every strict option on, throwing), as schemas/strict_test.go asks.
// ajv's path comes from BENCHSPEC_AJV (a node_modules directory).
//
// The formats the schemas use (date-time) are declared known without a
// checker: plain ajv knows no format until ajv-formats adds them, and a
// format is an annotation in draft-07, so this changes no verdict on a
// document; strict mode would otherwise refuse the unknown name.
"use strict";
const path = require("path");
const fs = require("fs");
const Ajv = require(path.join(process.env.BENCHSPEC_AJV, "ajv"));
let failed = false;
for (const file of process.argv.slice(2)) {
  const ajv = new Ajv({strict: true, allErrors: true, formats: {"date-time": true}});
  try {
    ajv.compile(JSON.parse(fs.readFileSync(file, "utf8")));
    console.log(`ok ${file}`);
  } catch (e) {
    failed = true;
    console.log(`FAIL ${file}: ${e.message}`);
  }
}
console.log(`ajv ${require(path.join(process.env.BENCHSPEC_AJV, "ajv", "package.json")).version}`);
process.exit(failed ? 1 : 0);
