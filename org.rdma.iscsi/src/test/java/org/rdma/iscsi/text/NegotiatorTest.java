package org.rdma.iscsi.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rdma.iscsi.text.Negotiator.Phase;

/** Each key of RFC 7143 chapter 13 through its result function, as a target answers an initiator. */
class NegotiatorTest {
    static final Map<Key, String> OWN = new EnumMap<>(Map.ofEntries(
            Map.entry(Key.HEADER_DIGEST, "CRC32C,None"),
            Map.entry(Key.DATA_DIGEST, "None"),
            Map.entry(Key.MAX_CONNECTIONS, "4"),
            Map.entry(Key.INITIAL_R2T, "No"),
            Map.entry(Key.IMMEDIATE_DATA, "Yes"),
            Map.entry(Key.MAX_RECV_DATA_SEGMENT_LENGTH, "65536"),
            Map.entry(Key.MAX_BURST_LENGTH, "1048576"),
            Map.entry(Key.FIRST_BURST_LENGTH, "262144"),
            Map.entry(Key.MAX_OUTSTANDING_R2T, "8"),
            Map.entry(Key.AUTH_METHOD, "CHAP,None")));

    private final Negotiator n = new Negotiator(OWN, true, true);

    /** Pairs from "k=v" strings. */
    static List<TextPair> pairs(String... kv) {
        List<TextPair> out = new ArrayList<>();
        for (String s : kv) {
            int eq = s.indexOf('=');
            out.add(new TextPair(s.substring(0, eq), s.substring(eq + 1)));
        }
        return out;
    }

    private String answer(String offer) throws TextFormatException {
        List<TextPair> out = new Negotiator(OWN, true, true).respond(pairs(offer), Phase.OPERATIONAL);
        return out.isEmpty() ? null : out.get(0).value();
    }

    @Test
    void listKeysTakeTheFirstOfferedValueThisSideSupports() throws Exception {
        assertEquals("CRC32C", answer("HeaderDigest=CRC32C,None"));
        assertEquals("None", answer("HeaderDigest=None,CRC32C"));
        assertEquals("None", answer("DataDigest=CRC32C,None"), "this side offers no data digest");
        assertEquals("Reject", answer("DataDigest=CRC32C"));
        assertEquals("Reject", answer("HeaderDigest=MD5"));
        assertEquals("RFC3720", answer("TaskReporting=FastAbort,RFC3720"));
    }

    @Test
    void booleanOrAndAnd() throws Exception {
        assertEquals("Yes", answer("InitialR2T=Yes"), "OR: Yes wins");
        assertEquals("No", answer("InitialR2T=No"));
        assertEquals("No", answer("ImmediateData=No"), "AND: No wins");
        assertEquals("Yes", answer("ImmediateData=Yes"));
        assertEquals("Yes", answer("DataPDUInOrder=No"), "the default Yes here wins the OR");
        assertEquals("Yes", answer("DataSequenceInOrder=No"));
        assertEquals("Reject", answer("ImmediateData=yes"));
    }

    @Test
    void numericalMinAndMax() throws Exception {
        assertEquals("262144", answer("MaxBurstLength=262144"));
        assertEquals("1048576", answer("MaxBurstLength=16777215"));
        assertEquals("1048576", answer("MaxBurstLength=0x100000"), "hex offers");
        assertEquals("1", answer("MaxConnections=1"));
        assertEquals("4", answer("MaxConnections=65535"));
        assertEquals("2", answer("DefaultTime2Wait=0"), "max: 2 is this side's default");
        assertEquals("5", answer("DefaultTime2Wait=5"));
        assertEquals("0", answer("DefaultTime2Retain=0"));
        assertEquals("20", answer("DefaultTime2Retain=3600"));
        assertEquals("0", answer("ErrorRecoveryLevel=2"));
        assertEquals("8", answer("MaxOutstandingR2T=16"));
        assertEquals("1", answer("iSCSIProtocolLevel=2"));
        assertEquals("65536", answer("FirstBurstLength=65536"));
    }

    @Test
    void valuesOutsideTheRangeAreRejected() throws Exception {
        assertEquals("Reject", answer("MaxBurstLength=511"));
        assertEquals("Reject", answer("MaxBurstLength=16777216"));
        assertEquals("Reject", answer("FirstBurstLength=0"));
        assertEquals("Reject", answer("MaxConnections=0"));
        assertEquals("Reject", answer("ErrorRecoveryLevel=3"));
        assertEquals("Reject", answer("DefaultTime2Wait=3601"));
        assertEquals("Reject", answer("MaxOutstandingR2T=abc"));
        assertEquals("Reject", answer("iSCSIProtocolLevel=32"));
    }

    @Test
    void firstBurstLengthNeverExceedsMaxBurstLength() throws Exception {
        assertEquals(pairs("MaxBurstLength=65536", "FirstBurstLength=65536"),
                n.respond(pairs("MaxBurstLength=65536", "FirstBurstLength=262144"), Phase.OPERATIONAL));
        Negotiator later = new Negotiator(OWN, true, true);
        assertEquals(pairs("FirstBurstLength=65536", "MaxBurstLength=65536"),
                later.respond(pairs("FirstBurstLength=262144", "MaxBurstLength=65536"), Phase.OPERATIONAL),
                "a MaxBurstLength settled after FirstBurstLength still bounds it");
        assertEquals(65536, later.result().firstBurstLength());
    }

    @Test
    void firstBurstLengthIsIrrelevantWithInitialR2TAndNoImmediateData() throws Exception {
        assertEquals(pairs("FirstBurstLength=Irrelevant", "InitialR2T=Yes", "ImmediateData=No"),
                n.respond(pairs("FirstBurstLength=4096", "InitialR2T=Yes", "ImmediateData=No"), Phase.OPERATIONAL));
    }

    @Test
    void sessionKeysAreIrrelevantInADiscoverySession() throws Exception {
        assertEquals(pairs("MaxBurstLength=Irrelevant", "HeaderDigest=CRC32C", "MaxConnections=Irrelevant",
                "InitialR2T=Irrelevant", "DefaultTime2Wait=2"),
                n.respond(pairs("MaxBurstLength=4096", "HeaderDigest=CRC32C", "MaxConnections=2", "InitialR2T=No",
                        "DefaultTime2Wait=1", "SessionType=Discovery"), Phase.OPERATIONAL));
        assertTrue(n.discovery());
        assertTrue(n.result().discovery());
    }

    @Test
    void unknownAndPrivateKeysAreNotUnderstood() throws Exception {
        assertEquals("NotUnderstood", answer("X-com.example.Feature=1"));
        assertEquals("NotUnderstood", answer("X#SomethingPublic=1"));
        assertEquals("NotUnderstood", answer("HeaderDigests=None"));
    }

    @Test
    void obsoleteMarkerKeysAreRejectedNotNotUnderstood() throws Exception {
        assertEquals("Reject", answer("IFMarker=No"));
        assertEquals("Reject", answer("OFMarker=No"));
        assertEquals("Reject", answer("IFMarkInt=2048"));
        assertEquals("Reject", answer("OFMarkInt=2048~4096"));
    }

    @Test
    void declarationsAreRecordedNotAnswered() throws Exception {
        assertEquals(List.of(), n.respond(pairs("InitiatorName=iqn.1994-05.com.example:h1",
                "InitiatorAlias=h1", "SessionType=Normal", "TargetName=iqn.2003-01.org.rdma:t1",
                "MaxRecvDataSegmentLength=262144", "X#NodeArchitecture=linux"), Phase.SECURITY));
        OperationalParameters p = n.result();
        assertEquals("iqn.1994-05.com.example:h1", p.initiatorName());
        assertEquals("h1", p.initiatorAlias());
        assertEquals("iqn.2003-01.org.rdma:t1", p.targetName());
        assertEquals(262144, p.maxXmitDataSegmentLength(), "what the initiator receives is what we send");
        assertEquals(65536, p.maxRecvDataSegmentLength(), "this side's own declaration");
        assertFalse(p.discovery());
    }

    @Test
    void malformedDeclarationsAreProtocolErrors() {
        assertEquals(TextFormatException.Reason.BAD_VALUE, assertThrows(TextFormatException.class,
                () -> n.respond(pairs("MaxRecvDataSegmentLength=100"), Phase.OPERATIONAL)).reason());
        assertEquals(TextFormatException.Reason.BAD_VALUE, assertThrows(TextFormatException.class,
                () -> new Negotiator(OWN, true, true).respond(pairs("SessionType=Bogus"), Phase.SECURITY)).reason());
        assertEquals(TextFormatException.Reason.BAD_VALUE, assertThrows(TextFormatException.class,
                () -> new Negotiator(OWN, true, true).respond(pairs("InitiatorName="), Phase.SECURITY)).reason());
    }

    @Test
    void aKeyTwiceInOneNegotiationIsAProtocolError() throws Exception {
        assertEquals(TextFormatException.Reason.DUPLICATE_KEY, assertThrows(TextFormatException.class,
                () -> n.respond(pairs("MaxBurstLength=4096", "MaxBurstLength=8192"), Phase.OPERATIONAL)).reason());
        Negotiator across = new Negotiator(OWN, true, true);
        across.respond(pairs("InitiatorName=iqn.a"), Phase.SECURITY);
        assertEquals(TextFormatException.Reason.DUPLICATE_KEY, assertThrows(TextFormatException.class,
                () -> across.respond(pairs("InitiatorName=iqn.a"), Phase.OPERATIONAL)).reason(),
                "across the PDUs of one login");
    }

    private static TextFormatException.Reason refused(Negotiator n, Phase phase, String offer) {
        return assertThrows(TextFormatException.class, () -> n.respond(pairs(offer), phase)).reason();
    }

    @Test
    void keysOutOfTheirSenderOrPhaseAreNotAllowed() {
        Negotiator.Phase op = Phase.OPERATIONAL;
        assertEquals(TextFormatException.Reason.NOT_ALLOWED, refused(n, op, "TargetAlias=t"), "a target's key");
        assertEquals(TextFormatException.Reason.NOT_ALLOWED, refused(n, op, "TargetPortalGroupTag=1"));
        assertEquals(TextFormatException.Reason.NOT_ALLOWED, refused(n, op, "SendTargets=All"), "FFPO");
        assertEquals(TextFormatException.Reason.NOT_ALLOWED, refused(n, op, "AuthMethod=None"), "security only");
        assertEquals(TextFormatException.Reason.NOT_ALLOWED, refused(n, op, "CHAP_A=5"));
        assertEquals(TextFormatException.Reason.NOT_ALLOWED,
                refused(n, Phase.FULL_FEATURE, "InitiatorName=iqn.a"), "IO");
        assertEquals(TextFormatException.Reason.NOT_ALLOWED,
                refused(new Negotiator(OWN, false, true), op, "MaxBurstLength=4096"), "LO on a second connection");
    }

    @Test
    void fullFeatureTextExchange() throws Exception {
        assertEquals(List.of(), n.respond(pairs("SendTargets=All", "MaxRecvDataSegmentLength=16384"),
                Phase.FULL_FEATURE));
        assertEquals("All", n.value(Key.SEND_TARGETS));
        assertEquals(16384, n.result().maxXmitDataSegmentLength());
    }

    @Test
    void authMethod() throws Exception {
        assertEquals(pairs("AuthMethod=None"), n.respond(pairs("AuthMethod=None,CHAP"), Phase.SECURITY),
                "the offer's order decides");
        assertEquals(pairs("AuthMethod=CHAP"), new Negotiator(OWN, true, true)
                .respond(pairs("AuthMethod=KRB5,CHAP,None"), Phase.SECURITY), "KRB5 is known, not supported");
        Negotiator chapOnly = new Negotiator(Map.of(Key.AUTH_METHOD, "CHAP"), true, true);
        assertEquals(pairs("AuthMethod=Reject"), chapOnly.respond(pairs("AuthMethod=None"), Phase.SECURITY));
        assertEquals(List.of(), new Negotiator(OWN, true, true).respond(pairs("CHAP_A=5"), Phase.SECURITY),
                "CHAP keys go to the authenticator");
    }

    @Test
    void specialValuesForKeysNeverOfferedAreBadAnswers() {
        for (String special : new String[] {"MaxBurstLength=Reject", "DataDigest=NotUnderstood",
                "FirstBurstLength=Irrelevant"}) {
            assertEquals(TextFormatException.Reason.BAD_ANSWER,
                    refused(new Negotiator(OWN, true, true), Phase.OPERATIONAL, special), special);
        }
    }

    // ------------------------------------------------------------------ this side as originator

    /** An initiator's negotiator: its offers are checked against the target's answers. */
    private static Negotiator offering(String... keys) {
        Negotiator o = new Negotiator(Map.of(Key.HEADER_DIGEST, "CRC32C,None", Key.MAX_BURST_LENGTH, "1048576",
                Key.INITIAL_R2T, "No", Key.IMMEDIATE_DATA, "Yes", Key.DEFAULT_TIME2WAIT, "5",
                Key.MAX_RECV_DATA_SEGMENT_LENGTH, "262144"), true, false);
        for (String k : keys) {
            o.offer(Key.of(k));
        }
        return o;
    }

    @Test
    void answersWithinTheOffersSettleTheKeys() throws Exception {
        Negotiator o = offering("HeaderDigest", "MaxBurstLength", "InitialR2T", "ImmediateData", "DefaultTime2Wait");
        assertEquals(5, o.unanswered().size());
        assertEquals(List.of(), o.respond(pairs("HeaderDigest=None", "MaxBurstLength=0x40000", "InitialR2T=Yes",
                "ImmediateData=No", "DefaultTime2Wait=7", "MaxRecvDataSegmentLength=65536"), Phase.OPERATIONAL),
                "answers are not answered again");
        assertTrue(o.unanswered().isEmpty());
        OperationalParameters p = o.result();
        assertFalse(p.headerDigest());
        assertEquals(262144, p.maxBurstLength());
        assertTrue(p.initialR2T(), "OR: the target's Yes wins over this side's No");
        assertFalse(p.immediateData(), "AND: the target's No wins over this side's Yes");
        assertEquals(7, p.defaultTime2Wait());
        assertEquals(262144, p.maxRecvDataSegmentLength(), "this side's declaration");
        assertEquals(65536, p.maxXmitDataSegmentLength(), "the target's declaration");
    }

    @Test
    void answersOutsideTheOfferAreBadAnswers() {
        String[][] cases = {
            {"HeaderDigest", "HeaderDigest=MD5", "a value never offered"},
            {"HeaderDigest", "HeaderDigest=CRC32C,None", "a list is no answer"},
            {"MaxBurstLength", "MaxBurstLength=2097152", "a minimum above the offer"},
            {"MaxBurstLength", "MaxBurstLength=256", "a minimum below the key's floor"},
            {"MaxBurstLength", "MaxBurstLength=lots", "not a number"},
            {"DefaultTime2Wait", "DefaultTime2Wait=3", "a maximum below the offer"},
            {"DefaultTime2Wait", "DefaultTime2Wait=3601", "a maximum above the key's ceiling"},
            {"InitialR2T", "InitialR2T=maybe", "not a boolean"},
        };
        for (String[] c : cases) {
            assertEquals(TextFormatException.Reason.BAD_ANSWER,
                    refused(offering(c[0]), Phase.OPERATIONAL, c[1]), c[2]);
        }
        Negotiator no = new Negotiator(Map.of(Key.IMMEDIATE_DATA, "No", Key.INITIAL_R2T, "Yes"), true, false);
        no.offer(Key.IMMEDIATE_DATA);
        no.offer(Key.INITIAL_R2T);
        assertEquals(TextFormatException.Reason.BAD_ANSWER, refused(no, Phase.OPERATIONAL, "ImmediateData=Yes"),
                "AND cannot turn this side's No into Yes");
        assertEquals(TextFormatException.Reason.BAD_ANSWER, refused(no, Phase.OPERATIONAL, "InitialR2T=No"),
                "OR cannot turn this side's Yes into No");
    }

    @Test
    void aRejectedOfferKeepsItsDefault() throws Exception {
        Negotiator o = offering("MaxBurstLength", "HeaderDigest");
        o.respond(pairs("MaxBurstLength=Reject", "HeaderDigest=NotUnderstood"), Phase.OPERATIONAL);
        assertTrue(o.unanswered().isEmpty());
        assertNull(o.value(Key.MAX_BURST_LENGTH));
        assertEquals(262144, o.result().maxBurstLength());
    }

    @Test
    void thePeersOwnOffersAreAnsweredBesideTheAnswers() throws Exception {
        Negotiator o = offering("MaxBurstLength");
        assertEquals(pairs("MaxConnections=1"), o.respond(pairs("MaxBurstLength=65536", "MaxConnections=4"),
                Phase.OPERATIONAL), "the target offered MaxConnections; this side's default 1 is the minimum");
        assertEquals(1, o.result().maxConnections());
    }

    @Test
    void declarationsOfOneSidedKeysAreTheSessionsValues() {
        Negotiator o = new Negotiator(Map.of(), true, false);
        assertEquals(new TextPair("InitiatorName", "iqn.a"), o.offer(Key.INITIATOR_NAME, "iqn.a"));
        o.offer(Key.SESSION_TYPE, "Discovery");
        assertEquals(new TextPair("MaxRecvDataSegmentLength", "8192"), o.offer(Key.MAX_RECV_DATA_SEGMENT_LENGTH));
        assertTrue(o.unanswered().isEmpty(), "declarations await no answer");
        assertEquals("iqn.a", o.result().initiatorName());
        assertTrue(o.result().discovery());
        assertThrows(IllegalArgumentException.class, () -> o.offer(Key.CHAP_A, "5"));
        assertThrows(IllegalArgumentException.class, () -> o.offer(Key.IF_MARKER, "No"));
    }

    @Test
    void aConnectionJoiningASessionKeepsTheSessionsKeys() throws Exception {
        OperationalParameters session = new OperationalParameters(false, false, 2, false, true, 65536, 8192, 524288,
                131072, 3, 10, 4, true, true, 0, false, "RFC3720", 1, "iqn.i", null, "iqn.t", "CHAP");
        Negotiator second = new Negotiator(OWN, false, true);
        second.respond(pairs("HeaderDigest=CRC32C", "MaxRecvDataSegmentLength=16384"), Phase.OPERATIONAL);
        assertEquals(new OperationalParameters(true, false, 2, false, true, 65536, 16384, 524288, 131072, 3, 10, 4,
                true, true, 0, false, "RFC3720", 1, "iqn.i", null, "iqn.t", "CHAP"),
                session.forConnection(second.result()));
    }

    @Test
    void resultHoldsEveryNegotiatedValue() throws Exception {
        n.respond(pairs("HeaderDigest=CRC32C", "DataDigest=CRC32C,None", "MaxConnections=2", "InitialR2T=No",
                "ImmediateData=Yes", "MaxBurstLength=524288", "FirstBurstLength=131072", "DefaultTime2Wait=3",
                "DefaultTime2Retain=10", "MaxOutstandingR2T=4", "DataPDUInOrder=Yes", "DataSequenceInOrder=Yes",
                "ErrorRecoveryLevel=0", "TaskReporting=RFC3720", "iSCSIProtocolLevel=1"), Phase.OPERATIONAL);
        assertEquals(new OperationalParameters(true, false, 2, false, true, 65536, 8192, 524288, 131072, 3, 10, 4,
                true, true, 0, false, "RFC3720", 1, null, null, null, "None"), n.result());
    }

    @Test
    void defaultsAreTheRfcs() {
        assertEquals(new OperationalParameters(false, false, 1, true, true, 8192, 8192, 262144, 65536, 2, 20, 1,
                true, true, 0, false, "RFC3720", 1, null, null, null, "None"), OperationalParameters.defaults());
    }
}
