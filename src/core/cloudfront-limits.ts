// CloudFront's limits and defaults for an invalidation: read by the config schema and the deploy, with no Node import.

/** Above this many paths one wildcard is sent instead (CloudFront bills paths beyond 1,000 a month; a wildcard counts as one). */
export const DEFAULT_MAX_PATHS = 100;
/** CloudFront takes at most 3,000 paths in one invalidation. */
export const MAX_PATHS_LIMIT = 3000;
/** A distribution ID as the CloudFront console shows it: E2QWRUHAPOMQZL. */
export const DISTRIBUTION_ID = /^[A-Z0-9]{1,64}$/;
