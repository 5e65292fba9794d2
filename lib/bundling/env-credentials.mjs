// Stands in for @aws-sdk/credential-provider-node in function bundles (see BUNDLE_ALIASES in lib/bundling.ts).
// Lambda always gives a function its role's credentials in the environment, the first link of the SDK's default
// chain; the other links (profile, SSO, files, web identity, container and instance metadata) are never reached
// there. Without credentials in the environment this fails loudly, with the SDK's own "Unable to find environment
// variable credentials".
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init = {}) => fromEnv(init);
