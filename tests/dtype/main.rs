//! The element types TF gets from ml_dtypes, checked against ml_dtypes
//! itself: the five float8 types (`float8`) and int2, uint2 and
//! float4_e2m1fn (`sub_byte`: names, numbers, conversions, proto fields
//! and printing).

mod float8;
mod sub_byte;
