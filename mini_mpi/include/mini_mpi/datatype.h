/*
 * mini_mpi/datatype.h: included by mpi.h; datatype types and constants (MPI-4.1 chapter 5,
 * plus MPI_Type_match_size from §19.1.9 and the status helpers of §3.2.5 and §5.1.11).
 *
 * Predefined datatypes are constant handles (see the handle layout in mpi.h). Their indices are
 * part of the library's ABI only, never of the program's: compare against the names.
 * MPI_LONG_LONG is MPI_LONG_LONG_INT (same handle). The Fortran names have gfortran's default
 * sizes: INTEGER, REAL and LOGICAL 4 bytes, DOUBLE PRECISION 8, COMPLEX 8.
 *
 * The MPI-1 names removed in MPI-3.0 (MPI_Type_hvector, MPI_Type_hindexed, MPI_Type_struct,
 * MPI_Type_extent, MPI_Type_lb, MPI_Type_ub, MPI_Address, the MPI_LB and MPI_UB markers) are
 * still provided, because older test programs use them.
 */
#ifndef MINI_MPI_DATATYPE_H
#define MINI_MPI_DATATYPE_H

#ifdef __cplusplus
extern "C" {
#endif

#define MMPI_DATATYPE(index) ((MPI_Datatype)MMPI_PREDEFINED(MMPI_HANDLE_KIND_DATATYPE, index))

/* ---- Predefined datatypes (MPI-4.1 §3.2.2, §5.1.3 pair types, §19.1 Fortran) ----------- */
#define MPI_CHAR MMPI_DATATYPE(1)
#define MPI_SIGNED_CHAR MMPI_DATATYPE(2)
#define MPI_UNSIGNED_CHAR MMPI_DATATYPE(3)
#define MPI_BYTE MMPI_DATATYPE(4)
#define MPI_WCHAR MMPI_DATATYPE(5)
#define MPI_SHORT MMPI_DATATYPE(6)
#define MPI_UNSIGNED_SHORT MMPI_DATATYPE(7)
#define MPI_INT MMPI_DATATYPE(8)
#define MPI_UNSIGNED MMPI_DATATYPE(9)
#define MPI_LONG MMPI_DATATYPE(10)
#define MPI_UNSIGNED_LONG MMPI_DATATYPE(11)
#define MPI_LONG_LONG_INT MMPI_DATATYPE(12)
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG MMPI_DATATYPE(13)
#define MPI_FLOAT MMPI_DATATYPE(14)
#define MPI_DOUBLE MMPI_DATATYPE(15)
#define MPI_LONG_DOUBLE MMPI_DATATYPE(16)
#define MPI_INT8_T MMPI_DATATYPE(17)
#define MPI_INT16_T MMPI_DATATYPE(18)
#define MPI_INT32_T MMPI_DATATYPE(19)
#define MPI_INT64_T MMPI_DATATYPE(20)
#define MPI_UINT8_T MMPI_DATATYPE(21)
#define MPI_UINT16_T MMPI_DATATYPE(22)
#define MPI_UINT32_T MMPI_DATATYPE(23)
#define MPI_UINT64_T MMPI_DATATYPE(24)
#define MPI_C_BOOL MMPI_DATATYPE(25)
#define MPI_C_COMPLEX MMPI_DATATYPE(26)
#define MPI_C_FLOAT_COMPLEX MMPI_DATATYPE(27)
#define MPI_C_DOUBLE_COMPLEX MMPI_DATATYPE(28)
#define MPI_C_LONG_DOUBLE_COMPLEX MMPI_DATATYPE(29)
#define MPI_AINT MMPI_DATATYPE(30)
#define MPI_OFFSET MMPI_DATATYPE(31)
#define MPI_COUNT MMPI_DATATYPE(32)
#define MPI_PACKED MMPI_DATATYPE(33)
/* Pair types for MPI_MINLOC / MPI_MAXLOC (MPI-4.1 §6.9.4). */
#define MPI_FLOAT_INT MMPI_DATATYPE(34)
#define MPI_DOUBLE_INT MMPI_DATATYPE(35)
#define MPI_LONG_INT MMPI_DATATYPE(36)
#define MPI_2INT MMPI_DATATYPE(37)
#define MPI_SHORT_INT MMPI_DATATYPE(38)
#define MPI_LONG_DOUBLE_INT MMPI_DATATYPE(39)
/* Fortran names that C codes use. */
#define MPI_CHARACTER MMPI_DATATYPE(40)
#define MPI_LOGICAL MMPI_DATATYPE(41)
#define MPI_INTEGER MMPI_DATATYPE(42)
#define MPI_REAL MMPI_DATATYPE(43)
#define MPI_DOUBLE_PRECISION MMPI_DATATYPE(44)
#define MPI_COMPLEX MMPI_DATATYPE(45)
#define MPI_DOUBLE_COMPLEX MMPI_DATATYPE(46)
#define MPI_INTEGER1 MMPI_DATATYPE(47)
#define MPI_INTEGER2 MMPI_DATATYPE(48)
#define MPI_INTEGER4 MMPI_DATATYPE(49)
#define MPI_INTEGER8 MMPI_DATATYPE(50)
#define MPI_REAL4 MMPI_DATATYPE(51)
#define MPI_REAL8 MMPI_DATATYPE(52)
#define MPI_REAL16 MMPI_DATATYPE(53)
#define MPI_COMPLEX8 MMPI_DATATYPE(54)
#define MPI_COMPLEX16 MMPI_DATATYPE(55)
#define MPI_COMPLEX32 MMPI_DATATYPE(56)
#define MPI_2INTEGER MMPI_DATATYPE(57)
#define MPI_2REAL MMPI_DATATYPE(58)
#define MPI_2DOUBLE_PRECISION MMPI_DATATYPE(59)
/* C++ types, declared in C too, as MPICH does (MPI-4.1 §3.2.2). */
#define MPI_CXX_BOOL MMPI_DATATYPE(60)
#define MPI_CXX_FLOAT_COMPLEX MMPI_DATATYPE(61)
#define MPI_CXX_DOUBLE_COMPLEX MMPI_DATATYPE(62)
#define MPI_CXX_LONG_DOUBLE_COMPLEX MMPI_DATATYPE(63)
/* The MPI-1 bound markers, removed in MPI 3.0 and still declared by MPICH 4: in a struct,
 * MPI_LB at displacement d sets the lower bound to d and MPI_UB the upper bound (MPI-1 §3.12.3);
 * such bounds stick through every constructor built on the type. */
#define MPI_LB MMPI_DATATYPE(64)
#define MPI_UB MMPI_DATATYPE(65)
/* Fortran INTEGER(16) (gfortran's INTEGER(KIND=16)), after the others so that no handle moved. */
#define MPI_INTEGER16 MMPI_DATATYPE(66)
#define MMPI_DATATYPE_PREDEFINED_COUNT 67 /* indices 1..66; 0 is unused */

/* ---- Combiners (MPI-4.1 §5.1.13), MPICH's values ---------------------------------------- */
#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_DUP 2
#define MPI_COMBINER_CONTIGUOUS 3
#define MPI_COMBINER_VECTOR 4
#define MPI_COMBINER_HVECTOR_INTEGER 5
#define MPI_COMBINER_HVECTOR 6
#define MPI_COMBINER_INDEXED 7
#define MPI_COMBINER_HINDEXED_INTEGER 8
#define MPI_COMBINER_HINDEXED 9
#define MPI_COMBINER_INDEXED_BLOCK 10
#define MPI_COMBINER_STRUCT_INTEGER 11
#define MPI_COMBINER_STRUCT 12
#define MPI_COMBINER_SUBARRAY 13
#define MPI_COMBINER_DARRAY 14
#define MPI_COMBINER_F90_REAL 15
#define MPI_COMBINER_F90_COMPLEX 16
#define MPI_COMBINER_F90_INTEGER 17
#define MPI_COMBINER_RESIZED 18
#define MPI_COMBINER_HINDEXED_BLOCK 19
#define MPI_COMBINER_VALUE_INDEX 20

/* ---- Subarray / darray arguments (MPI-4.1 §5.1.3, §5.1.4) ------------------------------- */
#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

/* ---- Type classes for MPI_Type_match_size (MPI-4.1 §19.1.9) ---------------------------- */
#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

#ifdef __cplusplus
}
#endif

#endif /* MINI_MPI_DATATYPE_H */
