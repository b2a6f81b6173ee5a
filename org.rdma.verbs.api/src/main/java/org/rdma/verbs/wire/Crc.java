package org.rdma.verbs.wire;
final class Crc { private Crc() {} }
