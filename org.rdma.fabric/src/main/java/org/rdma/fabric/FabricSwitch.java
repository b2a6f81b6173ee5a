package org.rdma.fabric;

import java.util.BitSet;
import org.osgi.annotation.versioning.ProviderType;

/**
 * An InfiniBand switch (IBTA vol. 1, chapter 18; ibsim's {@code Switch}): LID-routed forwarding
 * through the linear forwarding table, multicast through the multicast forwarding table, SL to
 * VL mapping per input/output port pair, and an SMA on port 0 that answers SubnGet/SubnSet and
 * handles directed-route SMPs. The tables are normally programmed by the SM through SMPs; these
 * methods give tests and tools direct access.
 */
@ProviderType
public interface FabricSwitch extends FabricNode {

    /** A linear forwarding table entry meaning "drop" (IBTA 14.2.5.10). */
    int LFT_DROP = 0xFF;

    /** @return SwitchInfo:LinearFDBCap, the number of LFT entries */
    int linearFdbCap();

    /** @return SwitchInfo:LinearFDBTop, the highest LID the LFT routes */
    int linearFdbTop();

    /**
     * Sets SwitchInfo:LinearFDBTop.
     *
     * @param top 0 .. linearFdbCap-1
     */
    void setLinearFdbTop(int top);

    /**
     * @param lid a unicast LID
     * @return LinearForwardingTable[lid]: the output port, or {@link #LFT_DROP}
     */
    int lft(int lid);

    /**
     * Sets LinearForwardingTable[lid] (and raises LinearFDBTop to {@code lid} if below).
     *
     * @param lid  a unicast LID below LinearFDBCap
     * @param port output port 0..NumPorts, or {@link #LFT_DROP}
     */
    void setLft(int lid, int port);

    /** @return SwitchInfo:MulticastFDBCap, the number of MFT entries from MLID 0xC000 */
    int multicastFdbCap();

    /**
     * @param mlid a multicast LID, 0xC000 ..
     * @return a copy of MulticastForwardingTable[mlid]: bit {@code p} set for each output port {@code p}
     */
    BitSet mft(int mlid);

    /**
     * Sets MulticastForwardingTable[mlid].
     *
     * @param mlid  a multicast LID below 0xC000 + MulticastFDBCap
     * @param ports the output ports (bit p = port p; bits above NumPorts are refused)
     */
    void setMft(int mlid, BitSet ports);

    /**
     * @param inPort  input port
     * @param outPort output port
     * @param sl      service level
     * @return SLtoVLMappingTable[inPort][outPort][sl]
     */
    int slToVl(int inPort, int outPort, int sl);

    /**
     * Sets one SLtoVLMappingTable entry.
     *
     * @param inPort  input port (0 .. NumPorts)
     * @param outPort output port (0 .. NumPorts)
     * @param sl      service level 0..15
     * @param vl      virtual lane 0..15 (15 discards packets of that SL)
     */
    void setSlToVl(int inPort, int outPort, int sl, int vl);

    /** @return SwitchInfo:EnhancedPort0 (whether port 0 is an enhanced port) */
    boolean enhancedPort0();
}
