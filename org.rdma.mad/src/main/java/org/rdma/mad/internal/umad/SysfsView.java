package org.rdma.mad.internal.umad;

import java.util.ArrayList;
import java.util.List;
import org.rdma.mad.umad.UmadCa;
import org.rdma.mad.umad.UmadPortAttr;
import org.rdma.verbs.DeviceAttr;
import org.rdma.verbs.Gid;
import org.rdma.verbs.IbDevice;
import org.rdma.verbs.PortAttr;
import org.rdma.verbs.PortSpeed;

/**
 * What libibumad reads from {@code /sys/class/infiniband/<ca>} (drivers/infiniband/core/sysfs.c),
 * computed from the device's verbs: the text of each attribute as the kernel writes it, parsed
 * back the way {@code umad_get_ca()} and {@code umad_get_port()} parse it.
 */
final class SysfsView {
    /** Mellanox's IEEE OUI: mlx4 and mlx5 name their {@code hca_type} {@code MT<device id>}. */
    private static final int MELLANOX_VENDOR_ID = 0x02c9;

    private SysfsView() {
    }

    /** {@code umad_get_ca()} of {@code dev}. */
    static UmadCa ca(IbDevice dev) {
        DeviceAttr a = dev.attrs();
        List<UmadPortAttr> ports = new ArrayList<>();
        for (int p = dev.startPort(); p <= dev.endPort(); p++) {
            ports.add(port(dev, p));
        }
        return new UmadCa(dev.name(), dev.nodeType().value, dev.endPort(), fwVer(a.fwVer), hcaType(a),
                Integer.toHexString(a.hwVer), dev.nodeGuid(), a.sysImageGuid, ports);
    }

    /** {@code umad_get_port()} of port {@code p} of {@code dev}. */
    static UmadPortAttr port(IbDevice dev, int p) {
        PortAttr pa = dev.queryPort(p);
        Gid gid0 = pa.gidTblLen > 0 ? dev.queryGid(p, 0) : Gid.ZERO;
        List<Integer> pkeys = new ArrayList<>();
        for (int i = 0; i < pa.pkeyTblLen; i++) {
            pkeys.add(dev.queryPkey(p, i));
        }
        return new UmadPortAttr(dev.name(), p, pa.lid, pa.lmc, pa.smLid, pa.smSl, pa.state.value, pa.physState.value,
                rate(pa), pa.portCapFlags, gid0.subnetPrefix(), gid0.interfaceId(), pkeys, pa.linkLayer.displayName());
    }

    /** sysfs {@code fw_ver} as {@code ib_get_device_fw_str()} fills it for mlx4: empty without firmware. */
    static String fwVer(long fwVer) {
        return fwVer == 0 ? "" : (fwVer >>> 32) + "." + ((fwVer >>> 16) & 0xffff) + "." + (fwVer & 0xffff);
    }

    /** sysfs {@code hca_type}: {@code MT<part>} for Mellanox devices, absent (empty) otherwise. */
    static String hcaType(DeviceAttr a) {
        return a.vendorId == MELLANOX_VENDOR_ID ? "MT" + a.vendorPartId : "";
    }

    /**
     * sysfs {@code rate} ({@code rate_show()}: {@code "40 Gb/sec (4X QDR)"}) as {@code umad_get_port()}
     * reads it: the whole Gb/s, so 1X SDR is 2.
     */
    static int rate(PortAttr pa) {
        return tenthsGbps(pa.activeSpeed) * pa.activeWidth.lanes / 10;
    }

    /** {@code rate_show()}'s per-lane speeds in units of 0.1 Gb/s. */
    private static int tenthsGbps(PortSpeed s) {
        return switch (s) {
            case SDR -> 25;
            case DDR -> 50;
            case QDR, FDR10 -> 100;
            case FDR -> 140;
            case EDR -> 250;
            case HDR -> 500;
            case NDR -> 1000;
            case XDR -> 2000;
        };
    }
}
