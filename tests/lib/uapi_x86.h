/*
 * uapi_x86.h - the x86_64 uapi values the unit tests pass to the model's
 * calls directly (the replayed traces name them; these tests do not).
 */
#ifndef VMSIM_TEST_UAPI_X86_H
#define VMSIM_TEST_UAPI_X86_H

#define P_R 0x1         /* PROT_READ */
#define P_RW 0x3        /* PROT_READ | PROT_WRITE */
#define M_SHARED 0x01   /* MAP_SHARED */
#define M_PRIVATE 0x02  /* MAP_PRIVATE */
#define M_FIXED 0x10    /* MAP_FIXED */
#define M_ANON 0x20     /* MAP_ANONYMOUS */
#define M_NORESERVE 0x4000 /* MAP_NORESERVE */
#define PG 4096ULL

#endif
