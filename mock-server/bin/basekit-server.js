#!/usr/bin/env node
// Committed beside dist/ so that npm links the bin at install time, before anything is built.
import '../dist/cli.js';
