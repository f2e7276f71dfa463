package io.antrean.worker.internal;

import io.antrean.proto.v1.CompleteItem;

/**
 * A successful job waiting for its completion to be answered: the lease it ran under and the item
 * that reports it. Immutable.
 *
 * @param lease the lease the handler ran under
 * @param item the CompleteBatch item, built from the lease's job id and fencing token
 */
record PendingCompletion(HeldLease lease, CompleteItem item) {}
