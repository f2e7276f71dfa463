/** Helpers shared by the client and its CLI; not a supported API, may change without notice. */
package io.antrean.client.internal;
