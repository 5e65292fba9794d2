#!/usr/bin/env node
import { buildApp } from '../lib/app.js';

// `npx cdk synth -c stage=dev` / `npx cdk deploy --all -c stage=prod`; see docs/operations.md, "Deploy and upgrade".
buildApp();
