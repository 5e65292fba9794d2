#!/usr/bin/env node
import { buildApp } from '../lib/app.js';

// `npx cdk synth -c stage=dev` / `npx cdk deploy --all -c stage=prod`; see README "Deploy".
buildApp();
