package org.rdma.iscsi.internal.interimlogin;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.rdma.iscsi.internal.target.IscsiConnection;
import org.rdma.iscsi.internal.target.IscsiTarget;
import org.rdma.iscsi.internal.target.LoginOutcome;
import org.rdma.iscsi.internal.target.PduHandler;
import org.rdma.iscsi.internal.target.Transport;
import org.rdma.iscsi.internal.target.TxPdu;
import org.rdma.iscsi.pdu.Bhs;
import org.rdma.iscsi.pdu.LoginStatus;
import org.rdma.iscsi.pdu.Opcode;
import org.rdma.iscsi.pdu.ReadResult;
import org.rdma.iscsi.text.Key;
import org.rdma.iscsi.text.Negotiator;
import org.rdma.iscsi.text.OperationalParameters;
import org.rdma.iscsi.text.TextAssembler;
import org.rdma.iscsi.text.TextCodec;
import org.rdma.iscsi.text.TextFormatException;
import org.rdma.iscsi.text.TextPair;
import org.rdma.target.fabric.FabricTpg;

/**
 * TEMPORARY: the least login that lets real initiators reach the full feature phase while the
 * login state machine (RFC 7143 6.3, with CHAP, in package {@code org.rdma.iscsi.login} of
 * another branch) is not merged; it goes away then. AuthMethod=None only, no redirection, keys
 * answered by the text package's negotiator, one connection per login; its only output is the
 * {@link LoginOutcome} the engine takes over from.
 */
public final class InterimLogin implements PduHandler {
    private static final Logger LOG = Logger.getLogger(InterimLogin.class.getName());
    private static final int SECURITY = 0;
    private static final int OPERATIONAL = 1;
    private static final int FULL_FEATURE = 3;

    /** What this target offers: the RFC's defaults but for larger segments and bursts, and digests. */
    static final Map<Key, String> OWN = Map.ofEntries(
            Map.entry(Key.HEADER_DIGEST, "None,CRC32C"),
            Map.entry(Key.DATA_DIGEST, "None,CRC32C"),
            Map.entry(Key.MAX_CONNECTIONS, "4"),
            Map.entry(Key.INITIAL_R2T, "No"),
            Map.entry(Key.IMMEDIATE_DATA, "Yes"),
            Map.entry(Key.MAX_RECV_DATA_SEGMENT_LENGTH, "262144"),
            Map.entry(Key.MAX_BURST_LENGTH, "1048576"),
            Map.entry(Key.FIRST_BURST_LENGTH, "262144"),
            Map.entry(Key.MAX_OUTSTANDING_R2T, "4"),
            Map.entry(Key.DATA_PDU_IN_ORDER, "No"),
            Map.entry(Key.DATA_SEQUENCE_IN_ORDER, "No"),
            Map.entry(Key.ERROR_RECOVERY_LEVEL, "0"),
            Map.entry(Key.AUTH_METHOD, "None"));

    private final IscsiTarget target;
    private final Transport transport;
    private final java.net.InetSocketAddress portal;
    private final TextAssembler assembler = new TextAssembler();
    private final Map<String, String> declared = new HashMap<>();
    private Negotiator negotiator;
    private boolean first = true;
    private boolean mrdslDeclared;
    private long isid;
    private int tsih;
    private int cid;
    private int cmdSn;
    private int statSn = 0x1000;
    private FabricTpg tpg;
    private boolean done;

    public InterimLogin(IscsiTarget target, Transport transport, java.net.InetSocketAddress portal) {
        this.target = target;
        this.transport = transport;
        this.portal = portal;
    }

    @Override
    public void receive(ReadResult result, Bhs bhs, ByteBuffer ahs, ByteBuffer data) {
        if (done) {
            return;
        }
        if (result != ReadResult.PDU || bhs.opcode() != Opcode.LOGIN_REQUEST) {
            if (result == ReadResult.PDU || !result.dropsConnection()) {
                fail(bhs, LoginStatus.INVALID_DURING_LOGIN, "a " + (result == ReadResult.PDU ? bhs.opcode() : result)
                        + " during login");
            } else {
                done = true;
                transport.close();
            }
            return;
        }
        if (first) {
            isid = bhs.isid();
            tsih = bhs.tsih();
            cid = bhs.cid();
            cmdSn = bhs.cmdSn();
            if (bhs.versionMin() > 0) {
                fail(bhs, LoginStatus.UNSUPPORTED_VERSION, "version " + bhs.versionMin());
                return;
            }
            negotiator = new Negotiator(OWN, tsih == 0, true);
        }
        List<TextPair> pairs;
        try {
            pairs = assembler.add(data, bhs.continueBit());
        } catch (TextFormatException e) {
            fail(bhs, LoginStatus.INITIATOR_ERROR, e.getMessage());
            return;
        }
        int csg = bhs.csg();
        if (pairs == null) {
            respond(bhs, csg, csg, false, List.of(), LoginStatus.SUCCESS, 0, cmdSn, cmdSn);
            return;
        }
        List<TextPair> answer = new ArrayList<>();
        try {
            pairs.forEach(p -> declared.putIfAbsent(p.key(), p.value()));
            answer.addAll(negotiator.respond(pairs, csg == SECURITY ? Negotiator.Phase.SECURITY : Negotiator.Phase.OPERATIONAL));
        } catch (TextFormatException e) {
            fail(bhs, LoginStatus.INITIATOR_ERROR, e.getMessage());
            return;
        }
        if (first) {
            first = false;
            LoginStatus refusal = checkNames(answer);
            if (refusal != null) {
                fail(bhs, refusal, "names " + declared);
                return;
            }
        }
        String auth = negotiator.value(Key.AUTH_METHOD);
        if (csg == SECURITY && auth != null && !"None".equals(auth)) {
            fail(bhs, LoginStatus.AUTHENTICATION_FAILURE, "this interim login knows AuthMethod=None only");
            return;
        }
        if (csg == OPERATIONAL && !mrdslDeclared) {
            mrdslDeclared = true;
            answer.add(new TextPair(Key.MAX_RECV_DATA_SEGMENT_LENGTH.wireName(), OWN.get(Key.MAX_RECV_DATA_SEGMENT_LENGTH)));
        }
        boolean transit = bhs.transit();
        int nsg = transit ? bhs.nsg() : csg;
        if (transit && nsg == FULL_FEATURE) {
            finish(bhs, csg, answer);
        } else {
            respond(bhs, csg, nsg, transit, answer, LoginStatus.SUCCESS, 0, cmdSn, cmdSn);
        }
    }

    /** InitiatorName always, TargetName of a TPG on this portal in a normal session (RFC 7143 13.4, 13.5). */
    private LoginStatus checkNames(List<TextPair> answer) {
        if (declared.get("InitiatorName") == null) {
            return LoginStatus.MISSING_PARAMETER;
        }
        if (negotiator.discovery()) {
            return null;
        }
        String name = declared.get("TargetName");
        if (name == null) {
            return LoginStatus.MISSING_PARAMETER;
        }
        tpg = target.tpg(name, portal).orElse(null);
        if (tpg == null) {
            return LoginStatus.NOT_FOUND;
        }
        answer.add(new TextPair(Key.TARGET_PORTAL_GROUP_TAG.wireName(), Integer.toString(tpg.tag())));
        return null;
    }

    private void finish(Bhs bhs, int csg, List<TextPair> answer) {
        OperationalParameters p = negotiator.result();
        boolean discovery = negotiator.discovery();
        LoginOutcome o = new LoginOutcome(isid, tsih, cid, declared.get("InitiatorName"),
                discovery ? null : declared.get("TargetName"), discovery, tpg, p, cmdSn);
        IscsiTarget.Admission a = target.admit(o);
        if (a.session() == null) {
            fail(bhs, a.refusal(), "not admitted");
            return;
        }
        var s = a.session();
        OperationalParameters session = tsih == 0 ? p : s.parameters();
        respond(bhs, csg, FULL_FEATURE, true, answer, LoginStatus.SUCCESS, s.tsih(), s.expCmdSn(), s.maxCmdSn());
        done = true;
        IscsiConnection c = s.startConnection(cid, transport, new OperationalParameters(p.headerDigest(), p.dataDigest(),
                session.maxConnections(), session.initialR2T(), session.immediateData(), p.maxRecvDataSegmentLength(),
                p.maxXmitDataSegmentLength(), session.maxBurstLength(), session.firstBurstLength(),
                session.defaultTime2Wait(), session.defaultTime2Retain(), session.maxOutstandingR2T(),
                session.dataPduInOrder(), session.dataSequenceInOrder(), session.errorRecoveryLevel(),
                session.discovery(), session.taskReporting(), session.iscsiProtocolLevel(), session.initiatorName(),
                session.initiatorAlias(), session.targetName(), session.authMethod()), statSn);
        transport.setHandler(c);
        LOG.fine(() -> "login of " + o.initiatorPortName() + " done: " + c);
    }

    private void fail(Bhs bhs, LoginStatus status, String why) {
        LOG.warning(() -> "login from " + transport.peerName() + " fails with " + status + ": " + why);
        respond(bhs, bhs.csg(), bhs.csg(), false, List.of(), status, 0, cmdSn, cmdSn);
        done = true;
        transport.close();
    }

    /** RFC 7143 11.13: a Login Response; each takes the next StatSN (11.13.3). */
    private void respond(Bhs req, int csg, int nsg, boolean transit, List<TextPair> keys, LoginStatus status,
            int newTsih, int expCmdSn, int maxCmdSn) {
        byte[] text = TextCodec.encode(keys);
        Bhs h = new Bhs(ByteBuffer.allocate(Bhs.BHS_LENGTH), 0).opcode(Opcode.LOGIN_RESPONSE).transit(transit)
                .csg(csg).nsg(transit ? nsg : 0).versionMax(0).versionActive(0).isid(req.isid()).tsih(newTsih)
                .itt(req.itt()).statSn(statSn++).expCmdSn(expCmdSn).maxCmdSn(maxCmdSn)
                .statusClass(status.statusClass()).statusDetail(status.detail()).dataSegmentLength(text.length);
        transport.sendPdu(new TxPdu(h.buffer(), text.length == 0 ? null : ByteBuffer.wrap(text)));
    }

    @Override
    public void transportClosed() {
        done = true;
    }
}
