/**
 * T10 protection information (SBC-3 4.22; LIO's {@code sbc_dif_generate()}, {@code sbc_dif_verify()}
 * and {@code sbc_set_prot_op_checks()}): which checks each RDPROTECT, WRPROTECT and VRPROTECT
 * value asks for, the generation of the tuples of writes that carry none, and the checks.
 */
package org.rdma.target.internal.pi;
