/**
 * {@code targetcli} as a Gogo command: targetcli-fb's paths, commands, parameters, messages and
 * {@code ls} tree over the configuration of {@code internal.config}. The command only parses and
 * prints; what it changes it writes to Config Admin, so it behaves the same in Karaf and in the
 * embedded runtime, and it returns once the live target has the change.
 */
package org.rdma.target.internal.shell;
