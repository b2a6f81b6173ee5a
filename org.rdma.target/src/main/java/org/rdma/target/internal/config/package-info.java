/**
 * LIO's configuration tree as Config Admin configurations (the configfs directories targetcli
 * creates): one factory PID per kind of object ({@link org.rdma.target.internal.config.Pids}),
 * with Metatype, and a DS component per configuration that hands its
 * {@link org.rdma.target.internal.config.Spec} to the
 * {@link org.rdma.target.internal.config.TargetTree}. The tree keeps the live target core equal
 * to the configured tree ({@link org.rdma.target.internal.config.LiveTree}), publishes every
 * TPG as a {@code FabricTpg} service, and writes and restores targetcli's saveconfig.json.
 *
 * <p>Configurations name their parents by LIO's keys (fabric, target WWN, TPG tag, storage
 * object path), not by PID, so they can be written by hand; an object whose parent is missing
 * waits for it. Locking: the tree's monitor guards the configured state only; one lock
 * serializes its application to the live objects, under which publishing a TPG calls the fabric
 * engine's bind methods; readers of the core ({@code TargetCore}, {@code FabricTpg}) take no lock
 * of the tree.
 */
package org.rdma.target.internal.config;
