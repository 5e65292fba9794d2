import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The benchmark's load-time floor: a function holding only the DynamoDB document client (lib/bench/bundles.ts). */
export const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
