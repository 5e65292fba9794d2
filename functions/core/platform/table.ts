/**
 * The single table's shape, read by the CDK data stack and by the local stack
 * so the two cannot differ.
 */
export const TABLE_SCHEMA = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'ttl',
  globalIndexes: [
    // Operator listings (clients) and, later, finance's ledger by month.
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  ],
} as const;
