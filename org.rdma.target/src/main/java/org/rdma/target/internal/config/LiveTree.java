package org.rdma.target.internal.config;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rdma.target.fabric.FabricModule;
import org.rdma.target.fabric.FabricTpg;
import org.rdma.target.fabric.NetworkPortal;
import org.rdma.target.fabric.TargetException;
import org.rdma.target.internal.backstore.Backstore;
import org.rdma.target.internal.backstore.FileioBackstore;
import org.rdma.target.internal.backstore.RamdiskBackstore;
import org.rdma.target.internal.core.NodeAcl;
import org.rdma.target.internal.core.TargetCoreImpl;
import org.rdma.target.internal.core.Tpg;
import org.rdma.target.internal.device.DeviceAttributes;
import org.rdma.target.internal.device.DeviceIdentity;
import org.rdma.target.internal.device.ScsiDevice;

/**
 * The live objects of the target core kept equal to a {@link ConfigModel}, as LIO's configfs
 * callbacks keep the kernel's objects equal to the directories: each {@link #apply} tears down
 * what is no longer configured (or configured differently), leaves first, then builds what is
 * missing, parents first. What is unchanged is left alone, so the sessions of a TPG survive an
 * unrelated change. An object whose parent is missing waits (a LUN whose storage object does not
 * open, a TPG whose fabric has no module) and is reported by {@link #errors()}.
 *
 * <p>Not thread-safe: its owner serializes the calls, and holds no other lock while it makes
 * them, since publishing a TPG calls the fabric engine's bind methods from inside {@link #apply}.
 */
final class LiveTree {
    private static final Logger LOG = Logger.getLogger(LiveTree.class.getName());

    /** Makes the TPGs visible to fabric engines (as OSGi services; tests record). */
    interface Publisher {
        /** Publishes a TPG; returns how to change or withdraw it. */
        Registration publish(FabricTpg tpg, Map<String, Object> properties);

        interface Registration {
            void update(Map<String, Object> properties);

            void unregister();
        }
    }

    /** Opens a storage object's backstore (tests substitute recording channels). */
    @FunctionalInterface
    interface Opener {
        Backstore open(Spec.Backstore spec) throws IOException;
    }

    /** The production opener: fileio files (created sparse when missing) and ramdisks. */
    static final Opener FILES = s -> s.plugin().equals(Pids.FILEIO_PLUGIN)
            ? FileioBackstore.open(Path.of(s.file()), s.size(), s.blockSize(), s.thin(), FileioBackstore.FILES)
            : new RamdiskBackstore(s.size(), s.blockSize());

    private record LiveDevice(Spec.Backstore spec, ScsiDevice device) {
    }

    private static final class LiveAcl {
        final NodeAcl acl;
        final Map<Integer, Spec.MappedLun> mapped = new HashMap<>();

        LiveAcl(NodeAcl acl) {
            this.acl = acl;
        }
    }

    private static final class LiveTpg {
        final Tpg tpg;
        final Map<Integer, Spec.Lun> luns = new HashMap<>();
        final Map<String, LiveAcl> acls = new HashMap<>();
        Publisher.Registration registration;
        Map<String, Object> published;

        LiveTpg(Tpg tpg) {
            this.tpg = tpg;
        }
    }

    private final TargetCoreImpl core;
    private final Publisher publisher;
    private final Opener opener;
    private final Map<String, LiveDevice> devices = new HashMap<>();
    private final Map<Spec.TpgKey, LiveTpg> tpgs = new LinkedHashMap<>();
    private final Map<String, String> errors = new LinkedHashMap<>();

    LiveTree(TargetCoreImpl core, Publisher publisher, Opener opener) {
        this.core = core;
        this.publisher = publisher;
        this.opener = opener;
    }

    /** PID to why its object is not live (conflict, missing parent, failed open). */
    Map<String, String> errors() {
        return errors;
    }

    /** The live device of a storage object path, if it is open. */
    ScsiDevice device(String storageObject) {
        LiveDevice d = devices.get(storageObject);
        return d == null ? null : d.device();
    }

    /** Makes the live objects what {@code model} configures, with the fabric modules registered now. */
    void apply(ConfigModel model, Map<String, FabricModule> modules) {
        errors.clear();
        errors.putAll(model.conflicts());
        Map<String, Spec.Backstore> wanted = new HashMap<>();
        model.backstores().forEach(e -> wanted.put(e.spec().path(), e.spec()));
        tearDown(model, modules, wanted);
        build(model, modules, wanted);
    }

    private static boolean tpgWanted(ConfigModel model, Map<String, FabricModule> modules, Spec.TpgKey key) {
        return model.tpg(key).isPresent() && model.target(key.fabric(), key.wwn()).isPresent()
                && modules.containsKey(key.fabric());
    }

    private void tearDown(ConfigModel model, Map<String, FabricModule> modules, Map<String, Spec.Backstore> wanted) {
        for (Iterator<Map.Entry<Spec.TpgKey, LiveTpg>> it = tpgs.entrySet().iterator(); it.hasNext();) {
            Map.Entry<Spec.TpgKey, LiveTpg> e = it.next();
            LiveTpg lt = e.getValue();
            if (!tpgWanted(model, modules, e.getKey())) {
                // The engine logs the sessions out when the service goes; the core closes the rest.
                lt.registration.unregister();
                core.removeTpg(lt.tpg);
                it.remove();
                continue;
            }
            for (Iterator<Map.Entry<Integer, Spec.Lun>> li = lt.luns.entrySet().iterator(); li.hasNext();) {
                Map.Entry<Integer, Spec.Lun> l = li.next();
                String so = l.getValue().storageObject();
                boolean same = model.lun(e.getKey(), l.getKey()).map(x -> x.spec().equals(l.getValue())).orElse(false);
                if (!same || !Objects.equals(wanted.get(so), devices.get(so).spec())) {
                    lt.tpg.removeLun(l.getKey());
                    li.remove();
                    lt.acls.values().forEach(a -> a.mapped.values().removeIf(m -> m.tpgLun() == l.getKey()));
                }
            }
            for (Iterator<Map.Entry<String, LiveAcl>> ai = lt.acls.entrySet().iterator(); ai.hasNext();) {
                Map.Entry<String, LiveAcl> a = ai.next();
                List<Spec.MappedLun> want = model.acl(e.getKey(), a.getKey()).map(x -> x.spec().mappedLuns()).orElse(null);
                if (want == null) {
                    lt.tpg.removeNodeAcl(a.getKey());
                    ai.remove();
                    continue;
                }
                for (Iterator<Spec.MappedLun> mi = a.getValue().mapped.values().iterator(); mi.hasNext();) {
                    Spec.MappedLun m = mi.next();
                    if (!want.contains(m)) {
                        a.getValue().acl.unmapLun(m.index());
                        mi.remove();
                    }
                }
            }
        }
        for (Iterator<Map.Entry<String, LiveDevice>> it = devices.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, LiveDevice> d = it.next();
            if (!d.getValue().spec().equals(wanted.get(d.getKey()))) {
                close(d.getValue());
                it.remove();
            }
        }
    }

    private static void close(LiveDevice d) {
        try {
            d.device().backstore().close();
        } catch (IOException e) {
            LOG.log(Level.WARNING, "closing " + d.spec().path(), e);
        }
    }

    private void build(ConfigModel model, Map<String, FabricModule> modules, Map<String, Spec.Backstore> wanted) {
        for (ConfigModel.Entry<Spec.Backstore> e : model.backstores()) {
            if (!devices.containsKey(e.spec().path())) {
                try {
                    devices.put(e.spec().path(), new LiveDevice(e.spec(), open(e.spec())));
                } catch (IOException | RuntimeException ex) {
                    errors.put(e.pid(), errno(e.spec(), ex));
                }
            }
        }
        for (ConfigModel.Entry<Spec.Tpg> e : model.tpgs()) {
            Spec.TpgKey key = e.spec().key();
            FabricModule module = modules.get(key.fabric());
            if (module == null) {
                errors.put(e.pid(), "ENODEV: no fabric module " + key.fabric() + " for " + key.path());
                continue;
            }
            if (model.target(key.fabric(), key.wwn()).isEmpty()) {
                errors.put(e.pid(), "ENOENT: " + key.path() + ": no target /" + key.fabric() + "/" + key.wwn());
                continue;
            }
            LiveTpg lt = tpgs.computeIfAbsent(key,
                    k -> new LiveTpg(core.addTpg(k.fabric(), k.wwn(), k.tag(), module.protocolId())));
            lt.tpg.setAttributes(e.spec().attributes());
            lt.tpg.setAuth(e.spec().auth());
            lt.tpg.setEnabled(e.spec().enable());
            lt.tpg.setPortals(model.portals(key).stream()
                    .map(p -> new NetworkPortal(p.spec().address(), p.spec().port(), p.spec().iser())).toList());
            buildLuns(model, lt, key);
            buildAcls(model, lt, key);
            publish(lt, key);
        }
        for (ConfigModel.Entry<? extends Spec> e : orphans(model, modules)) {
            errors.putIfAbsent(e.pid(), "ENOENT: " + e.spec().path() + ": its TPG is not configured");
        }
    }

    private ScsiDevice open(Spec.Backstore s) throws IOException {
        Backstore b = opener.open(s);
        try {
            DeviceAttributes a = DeviceAttributes.DEFAULTS.withReadOnly(s.readOnly()).withWriteCache(s.writeBack())
                    .withThinProvisioning(s.thin());
            String serial = s.wwn().isEmpty() ? DeviceIdentity.defaultSerial(s.plugin(), s.name()) : s.wwn();
            return new ScsiDevice(s.name(), b, a, DeviceIdentity.of(serial, DeviceIdentity.DEFAULT_COMPANY_ID));
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
    }

    /** The failure as an errno message naming the storage object. */
    private static String errno(Spec.Backstore s, Exception e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        if (e instanceof TargetException || m.matches("E[A-Z]+: .*")) {
            return m;
        }
        String errno = e instanceof NoSuchFileException ? "ENOENT"
                : e instanceof AccessDeniedException ? "EACCES"
                : e instanceof FileSystemException || e instanceof IOException ? "EIO" : "EINVAL";
        return errno + ": " + s.path() + ": " + m;
    }

    private void buildLuns(ConfigModel model, LiveTpg lt, Spec.TpgKey key) {
        for (ConfigModel.Entry<Spec.Lun> l : model.luns(key)) {
            if (lt.luns.containsKey(l.spec().index())) {
                continue;
            }
            LiveDevice d = devices.get(l.spec().storageObject());
            if (d == null) {
                errors.put(l.pid(), "ENOENT: " + l.spec().path() + ": storage object " + l.spec().storageObject()
                        + " is not " + (model.backstore(l.spec().storageObject()).isPresent() ? "open" : "configured"));
                continue;
            }
            lt.tpg.addLun(l.spec().index(), d.device());
            lt.luns.put(l.spec().index(), l.spec());
        }
    }

    private void buildAcls(ConfigModel model, LiveTpg lt, Spec.TpgKey key) {
        for (ConfigModel.Entry<Spec.Acl> a : model.acls(key)) {
            LiveAcl la = lt.acls.computeIfAbsent(a.spec().nodeWwn(), n -> new LiveAcl(lt.tpg.addNodeAcl(n)));
            la.acl.setAuth(a.spec().auth());
            for (Spec.MappedLun m : a.spec().mappedLuns()) {
                if (la.mapped.containsKey(m.index())) {
                    continue;
                }
                if (!lt.luns.containsKey(m.tpgLun())) {
                    errors.putIfAbsent(a.pid(), "ENOENT: " + a.spec().path() + ": mapped LUN " + m.index()
                            + " needs TPG LUN " + m.tpgLun());
                    continue;
                }
                la.acl.mapLun(m.index(), m.tpgLun(), m.writeProtect());
                la.mapped.put(m.index(), m);
            }
        }
    }

    private void publish(LiveTpg lt, Spec.TpgKey key) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put(FabricTpg.FABRIC, key.fabric());
        p.put(FabricTpg.WWN, key.wwn());
        p.put(FabricTpg.TAG, key.tag());
        p.put(FabricTpg.ENABLED, lt.tpg.enabled());
        p.put(FabricTpg.PORTALS, lt.tpg.portals().stream().map(NetworkPortal::toString).toList());
        if (lt.registration == null) {
            lt.registration = publisher.publish(lt.tpg, p);
        } else if (!p.equals(lt.published)) {
            lt.registration.update(p);
        }
        lt.published = p;
    }

    /** Portals, LUNs and ACLs whose TPG is not configured. */
    private static List<ConfigModel.Entry<? extends Spec>> orphans(ConfigModel model, Map<String, FabricModule> modules) {
        return model.byPid().entrySet().stream()
                .filter(e -> e.getValue() instanceof Spec.Portal || e.getValue() instanceof Spec.Lun
                        || e.getValue() instanceof Spec.Acl)
                .filter(e -> model.tpg(tpgOf(e.getValue())).isEmpty())
                .<ConfigModel.Entry<? extends Spec>>map(e -> new ConfigModel.Entry<>(e.getKey(), e.getValue())).toList();
    }

    private static Spec.TpgKey tpgOf(Spec s) {
        if (s instanceof Spec.Portal p) {
            return p.tpg();
        }
        if (s instanceof Spec.Lun l) {
            return l.tpg();
        }
        return ((Spec.Acl) s).tpg();
    }
}
