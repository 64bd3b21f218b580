#!/usr/bin/env node
// The `heed-demo-site` command: present before the build so that the install can link it.
import '../dist/serve.js';
