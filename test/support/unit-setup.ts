// The unit tier starts no emulators. In a full run the other tiers' global
// setup has started them; forgetting them here makes a unit test that reaches
// for them fail in every run, not only when the tier runs alone.
delete process.env.TEST_DYNAMODB_ENDPOINT;
delete process.env.TEST_SQS_ENDPOINT;
