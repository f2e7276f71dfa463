/**
 * The {@code antrean} command line ({@link io.antrean.client.cli.AntreanCli}), built on the client
 * library and picocli. Exit codes: 0 ok, 1 server error or refusal (or samples failed), 2 usage
 * error, 3 not found, 4 coordinator unavailable.
 */
package io.antrean.client.cli;
