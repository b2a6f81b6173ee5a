package org.rdma.target.internal.config;

import java.util.Locale;
import org.osgi.service.component.annotations.Component;
import org.rdma.target.fabric.FabricModule;
import org.rdma.target.fabric.TargetException;

/**
 * The iSCSI fabric as the configuration sees it (rtslib's {@code ISCSIFabricModule}): names of
 * the types iqn, naa and eui (RFC 7143 4.2.7.1; rtslib's checks), protocol identifier 5, portals
 * on port 3260. It lives here rather than in the iSCSI bundle so the configuration of iSCSI
 * targets does not wait for the engine.
 */
@Component(service = FabricModule.class, property = FabricModule.FABRIC + "=iscsi")
public final class IscsiFabricModule implements FabricModule {
    /** SPC-4 table 362. */
    public static final int PROTOCOL_ID = 5;

    @Override
    public String name() {
        return "iscsi";
    }

    @Override
    public int protocolId() {
        return PROTOCOL_ID;
    }

    @Override
    public int defaultPort() {
        return 3260;
    }

    /**
     * rtslib's {@code normalize_wwn(('iqn', 'naa', 'eui'), wwn)}: lower case; {@code 0x}, '-'
     * and ':' dropped from naa/eui digits, whose prefix may be left out.
     */
    @Override
    public String normalizeWwn(String wwn) {
        String w = wwn.strip().toLowerCase(Locale.ROOT);
        if (w.matches("iqn\\.[0-9]{4}-[01][0-9]\\..*\\..*") && w.chars().noneMatch(c -> c == ' ' || c == '_' || c < 0x21
                || c > 0x7E)) {
            return w;
        }
        for (String type : new String[] {"naa", "eui"}) {
            String h = w.startsWith("0x") ? w.substring(2) : w;
            h = h.replace("-", "").replace(":", "");
            if (!h.startsWith("naa.") && !h.startsWith("eui.")) {
                h = type + "." + h;
            }
            if (type.equals("naa") && h.matches("naa\\.[125c-f][0-9a-f]{15}") || type.equals("eui")
                    && h.matches("eui\\.[0-9a-f]{16}")) {
                return h;
            }
        }
        throw new TargetException("EINVAL", "WWN not valid as: iqn, naa, eui: '" + wwn + "'");
    }
}
