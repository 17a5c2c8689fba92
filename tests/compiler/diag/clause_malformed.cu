// Malformed if(...) / final(...) clauses. The expected diagnostics come first: CMake reads
// this file as a list, and the brackets further down would merge the lines after them.
// Each malformed clause drops its directive, so the call below it is then a direct call.
// Expected diagnostics (checked by check_diag.cmake):
// EXPECT: clause_malformed.cu:24:33: error: duplicate 'if' clause
// EXPECT: clause_malformed.cu:26:45: error: duplicate 'final' clause
// EXPECT: clause_malformed.cu:28:26: error: expected an expression in 'if(...)'
// EXPECT: clause_malformed.cu:30:29: error: expected an expression in 'final(...)'
// EXPECT: clause_malformed.cu:32:28: error: malformed expression in 'if(...)': expected an operand at the end
// EXPECT: clause_malformed.cu:34:34: error: malformed expression in 'final(...)': a statement or a block cannot appear in a clause
// EXPECT: clause_malformed.cu:36:27: error: malformed expression in 'if(...)': expected one expression, found ','
// EXPECT: clause_malformed.cu:38:26: error: expected '(' after 'if'
// EXPECT: clause_malformed.cu:40:28: error: expected ')' to close 'final('
// EXPECT: clause_malformed.cu:42:26: error: malformed expression in 'if(...)': expected an operand at the start
// EXPECT: clause_malformed.cu:44:30: error: malformed expression in 'final(...)': unbalanced brackets
// EXPECT: clause_malformed.cu:46:34: error: malformed expression in 'if(...)': unbalanced brackets
// EXPECT: clause_malformed.cu:25:9: error: task function 'f' is called without '#pragma gtap task'
#include "gtap_thread.cuh"
#pragma gtap function
__device__ int f(int n) {
    if (n < 2) return n;
    int a, b, c, d;
    int v[4] = {0, 1, 2, 3};
    #pragma gtap task if(n > 2) if(n > 3)
    a = f(n - 1);
    #pragma gtap task final(n < 4) queue(0) final(n < 5)
    b = f(n - 2);
    #pragma gtap task if()
    c = f(n - 3);
    #pragma gtap task final(  )
    d = f(n - 4);
    #pragma gtap task if(n >)
    a = f(n - 5);
    #pragma gtap task final(n > 1; n < 9)
    b = f(n - 6);
    #pragma gtap task if(n, 3)
    c = f(n - 7);
    #pragma gtap task if n > 2
    a = f(n - 9);
    #pragma gtap task final(n < 2
    b = f(n - 10);
    #pragma gtap task if(== n)
    c = f(n - 11);
    #pragma gtap task final(v[0)
    d = f(n - 8);
    #pragma gtap task if(v[1] + 1])
    a = f(n - 12);
    #pragma gtap taskwait
    return a + b + c + d;
}
