/** How long a delivery waits for an endpoint's answer when its endpoint does not say (imports nothing, for the schemas). */
export const DEFAULT_TIMEOUT_SECONDS = 10;
