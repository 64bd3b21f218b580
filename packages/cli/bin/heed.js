#!/usr/bin/env node
// The `heed` command. A file of its own that exists before the build, so that package managers can
// link the command at install time; the CLI itself is compiled to dist/heed.js.
import '../dist/heed.js';
