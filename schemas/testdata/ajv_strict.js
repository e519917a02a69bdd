// Compiles each JSON Schema named on the command line with ajv in strict
// mode (every strict option on, throwing), as schemas/strict_test.go asks;
// the other schemas named are loaded beside it, for $refs between them.
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
const files = process.argv.slice(2);
const docs = Object.fromEntries(files.map((f) => [f, JSON.parse(fs.readFileSync(f, "utf8"))]));
for (const file of files) {
  const ajv = new Ajv({strict: true, allErrors: true, formats: {"date-time": true}});
  try {
    // The others by their $id, for the $refs between schemas (ab's).
    for (const other of files) {
      if (other !== file) ajv.addSchema(docs[other]);
    }
    ajv.compile(docs[file]);
    console.log(`ok ${file}`);
  } catch (e) {
    failed = true;
    console.log(`FAIL ${file}: ${e.message}`);
  }
}
console.log(`ajv ${require(path.join(process.env.BENCHSPEC_AJV, "ajv", "package.json")).version}`);
process.exit(failed ? 1 : 0);
