import type { Deps } from '../platform/deps.js';
import type { RegisterAdapter } from './register-adapter.js';
import type { Register } from './registers.js';
import { simulatedRegister } from './simulated-register.js';

/** The adapter of each register: the simulated register until a live one is configured. */
export const adapterFor = (deps: Deps, register: Register): RegisterAdapter => simulatedRegister(deps, register);
