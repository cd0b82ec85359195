/* compiler/parser.y: grammar of the .fgm model language (pure bison).
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This file is the canonical definition of the language's syntax; README.md
 * ("The model language") describes it for users.  Actions are one-line
 * calls into ast.c, which builds nodes in the compilation's arena, so the
 * destructors have nothing to free.  Terminals carry no value: actions read
 * a token's text through its location (byte offsets into the source).
 *
 * Error handling: yyerror keeps bison's message pending (diag.c); the
 * error productions "'(' error" and "'[' error" call ast_unclosed, which
 * turns it into "expected ')' (to close '(' at line L)" when an unclosed
 * bracket is the likely cause.  "line: error NL" resynchronizes at the
 * next line, so one run reports an error per bad line, up to the cap.
 *
 * Contract (parse_program in lexer.l runs this parser):
 *   requires: the source text.
 *   produces: c->stmts, the statements in source order (only the lines
 *             that parsed); syntax errors reported.
 *   breaks:   nothing.
 */

%code requires {
#include "fgmc.h"
}

%code provides {
/* The scanner (lexer.l); SCANNER is flex's yyscan_t. */
int fgm_yylex(FGM_YYSTYPE *lval, FGM_YYLTYPE *lloc, void *scanner);
}

%code {
static void fgm_yyerror(FGM_YYLTYPE *loc, fgmc *c, void *scanner,
                        const char *msg);

/* A rule spans its first to its last symbol; an empty rule sits at the
 * end of what precedes it. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                        \
    do {                                                                   \
        if (N) {                                                           \
            (Cur).start = YYRHSLOC(Rhs, 1).start;                          \
            (Cur).end = YYRHSLOC(Rhs, N).end;                              \
        } else {                                                           \
            (Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;                \
        }                                                                  \
    } while (0)
}

%define api.pure full
%define api.prefix {fgm_yy}
%define api.location.type {fgmc_loc}
%define parse.error detailed
%define parse.lac full
%locations
%expect 0
%parse-param {fgmc *c} {void *scanner}
%lex-param {void *scanner}

%union {
    fgmc_node *node;
    fgmc_stmt *stmt;
}

/* Keywords. */
%token MODEL "'model'" CONST "'const'" VAR "'var'" PRIOR "'prior'"
%token OBSERVED "'observed'" IN "'in'" FOR "'for'" ALLDIFF "'alldiff'"
%token TABLE "'table'" EVIDENCE "'evidence'" FIX "'fix'" INFER "'infer'"
%token SUM "'sum'"
/* Words and literals (their text is read through the location). */
%token IDENT "name" INT "integer" REAL "number" STRING "string"
%token DOTDOT "'..'" NEQ "'!='" CMP "comparison"
%token NL "end of line"
%token INVALID "invalid character"

%type <node> expr ref subs sub range dims list items items_opt item
%type <node> refs refs_opt terms terms_opt names binder binders for_opt
%type <node> inner_binders
%type <node> dist dist_opt
%type <node> word key setting settings settings_opt args_opt
%type <stmt> stmt var_decl prior_decl constraint

/* Arena-owned: freed with the compilation, never one by one. */
%destructor { (void)$$; } <node>
%destructor { (void)$$; } <stmt>

%left '+' '-'
%left '*' '/' '%'
%precedence NEG

%%

/* ---- program: one statement per line ---------------------------------- */

program:
    %empty
  | program line
  ;

line:
    NL
  | stmt NL     { yyerrok; if (ast_line_done(c, $1)) YYABORT; }
  | error NL    { yyerrok; if (ast_line_done(c, NULL)) YYABORT; }
  ;

/* ---- statements -------------------------------------------------------- */

stmt:
    MODEL IDENT                   { $$ = ast_model(c, &@2, &@$); }
  | CONST IDENT '=' expr          { $$ = ast_const(c, &@2, $4, &@$); }
  | VAR var_decl                  { $$ = ast_decl(c, $2, 0, &@$); }
  | OBSERVED VAR var_decl         { $$ = ast_decl(c, $3, 1, &@$); }
  | PRIOR prior_decl              { $$ = ast_decl(c, $2, 0, &@$); }
  | OBSERVED PRIOR prior_decl     { $$ = ast_decl(c, $3, 1, &@$); }
  | constraint for_opt            { $$ = ast_for(c, $1, $2, &@$); }
  | INFER word args_opt           { $$ = ast_infer(c, $2, $3, &@$); }
  ;

/* ---- declarations: var x[N][N] in 1..N ~ discrete(p) ------------------- */

var_decl:
    IDENT dims IN range dist_opt  { $$ = ast_var(c, &@1, $2, $4, $5, &@$); }
  ;

prior_decl:
    IDENT dims '~' dist           { $$ = ast_prior(c, &@1, $2, $4, &@$); }
  ;

dims:
    %empty                        { $$ = ast_seq(c); }
  | dims '[' expr ']'             { $$ = ast_append(c, $1, $3); }
  | dims '[' error                { $$ = ast_unclosed(c, &@2, "']'", $1); }
  ;

dist_opt:
    %empty                        { $$ = NULL; }
  | '~' dist                      { $$ = $2; }
  ;

/* discrete(p), dirichlet(K), dirichlet([1, 2, 1.5]) */
dist:
    IDENT '(' expr ')'            { $$ = ast_call(c, &@1, $3, &@$); }
  | IDENT '(' list ')'            { $$ = ast_call(c, &@1, $3, &@$); }
  | IDENT '(' error               { $$ = ast_unclosed(c, &@2, "')'", NULL); }
  ;

/* ---- constraints and their comprehensions ------------------------------ */

constraint:
    ALLDIFF ref
        { $$ = ast_constraint(c, S_ALLDIFF, $2, NULL, NULL, &@$); }
  | ALLDIFF '(' nls refs_opt ')'
        { $$ = ast_constraint(c, S_ALLDIFF, $4, NULL, NULL, &@$); }
  | ALLDIFF '(' nls refs FOR nls inner_binders nls ')'
        { $$ = ast_alldiff_for(c, $4, $7, &@$); }
  | ALLDIFF '(' error             { $$ = ast_unclosed(c, &@2, "')'", NULL); }
  | SUM ref NEQ expr
        { $$ = ast_sum(c, $2, &@3, $4, &@$); }
  | SUM ref CMP expr
        { $$ = ast_sum(c, $2, &@3, $4, &@$); }
  | SUM '(' nls terms_opt ')' NEQ expr
        { $$ = ast_sum(c, $4, &@6, $7, &@$); }
  | SUM '(' nls terms_opt ')' CMP expr
        { $$ = ast_sum(c, $4, &@6, $7, &@$); }
  | SUM '(' nls terms FOR nls inner_binders nls ')' NEQ expr
        { $$ = ast_sum_for(c, $4, $7, &@10, $11, &@$); }
  | SUM '(' nls terms FOR nls inner_binders nls ')' CMP expr
        { $$ = ast_sum_for(c, $4, $7, &@10, $11, &@$); }
  | SUM '(' error                 { $$ = ast_unclosed(c, &@2, "')'", NULL); }
  | ref NEQ expr
        { $$ = ast_compare(c, $1, &@2, $3, &@$); }
  | ref CMP expr
        { $$ = ast_compare(c, $1, &@2, $3, &@$); }
  | TABLE '(' nls refs ')' '=' list
        { $$ = ast_constraint(c, S_TABLE, $4, NULL, $7, &@$); }
  | TABLE '(' nls refs ',' nls ')' '=' list    /* a trailing comma */
        { $$ = ast_constraint(c, S_TABLE, $4, NULL, $9, &@$); }
  | TABLE '(' error               { $$ = ast_unclosed(c, &@2, "')'", NULL); }
  | EVIDENCE ref '=' list
        { $$ = ast_constraint(c, S_EVIDENCE, $2, NULL, $4, &@$); }
  | ref '~' dist                  { $$ = ast_draw(c, $1, $3, &@$); }
  | FIX ref '=' STRING            { $$ = ast_fix(c, $2, NULL, &@4, &@$); }
  | FIX ref '=' expr              { $$ = ast_fix(c, $2, $4, NULL, &@$); }
  ;

for_opt:
    %empty                        { $$ = NULL; }
  | FOR binders                   { $$ = $2; }
  ;

/* for i in 0..N-1, j in 0..N-1   or   for a, b in 0..B-1 */
binders:
    binder
  | binders ',' binder            { $$ = ast_concat(c, $1, $3); }
  ;

binder:
    names IN range                { $$ = ast_bind(c, $1, $3); }
  ;

/* A sum's or an alldiff's own for clause, inside its parentheses: a
 * line may break after `for` and after a comma, as between the terms. */
inner_binders:
    binder
  | inner_binders ',' nls binder  { $$ = ast_concat(c, $1, $4); }
  ;

names:
    IDENT                         { $$ = ast_names(c, NULL, &@1); }
  | names ',' IDENT               { $$ = ast_names(c, $1, &@3); }
  ;

refs_opt:
    %empty                        { $$ = ast_seq(c); }
  | refs
  | refs ',' nls
  ;

refs:
    ref nls                       { $$ = ast_append(c, ast_seq(c), $1); }
  | refs ',' nls ref nls          { $$ = ast_append(c, $1, $4); }
  ;

/* A sum's terms: references, each times an integer or not (2 * x, -y,
 * z * N), told apart from the numbers by sema once names are known. */
terms_opt:
    %empty                        { $$ = ast_seq(c); }
  | terms
  | terms ',' nls
  ;

terms:
    expr nls                      { $$ = ast_append(c, ast_seq(c), $1); }
  | terms ',' nls expr nls        { $$ = ast_append(c, $1, $4); }
  ;

/* ---- references: cell, cell[i][*], cell[0..2][B*b .. B*b+B-1] ---------- */

ref:
    IDENT subs                    { $$ = ast_ref(c, &@1, $2, &@$); }
  ;

subs:
    %empty                        { $$ = ast_seq(c); }
  | subs '[' sub ']'              { $$ = ast_append(c, $1, $3); }
  | subs '[' error                { $$ = ast_unclosed(c, &@2, "']'", $1); }
  ;

sub:
    expr
  | range
  | '*'                           { $$ = ast_all(c, &@1); }
  ;

range:
    expr DOTDOT expr              { $$ = ast_binary(c, N_RANGE, $1, $3, &@$); }
  ;

/* ---- lists of numbers: [0.2, 0.8], [[0.9, 0.1], [0.2, 0.8]] ------------ */

list:
    '[' nls items_opt ']'         { $$ = ast_list(c, $3, &@$); }
  | '[' error                     { $$ = ast_unclosed(c, &@1, "']'", NULL); }
  ;

items_opt:
    %empty                        { $$ = ast_seq(c); }
  | items
  | items ',' nls
  ;

items:
    item nls                      { $$ = ast_append(c, ast_seq(c), $1); }
  | items ',' nls item nls        { $$ = ast_append(c, $1, $4); }
  ;

item:
    expr
  | list
  ;

/* Line breaks are allowed after an opening bracket, after a comma and
 * before the closing bracket of lists and argument lists. */
nls:
    %empty
  | nls NL
  ;

/* ---- inference block: infer ep(iterations = 50, alldiff = pairwise) ---- */

word:
    IDENT                         { $$ = ast_name(c, &@1); }
  | word '-' IDENT                { $$ = ast_word(c, $1, &@3); }
  | word '-' SUM                  { $$ = ast_word(c, $1, &@3); }
  ;

args_opt:
    %empty                        { $$ = NULL; }
  | '(' nls settings_opt ')'      { $$ = $3; }
  | '(' error                     { $$ = ast_unclosed(c, &@1, "')'", NULL); }
  ;

settings_opt:
    %empty                        { $$ = ast_seq(c); }
  | settings
  | settings ',' nls
  ;

settings:
    setting nls                   { $$ = ast_append(c, ast_seq(c), $1); }
  | settings ',' nls setting nls  { $$ = ast_append(c, $1, $4); }
  ;

setting:
    key '=' expr                  { $$ = ast_set(c, $1, $3, &@$); }
  ;

key:
    IDENT                         { $$ = ast_name(c, &@1); }
  | ALLDIFF                       { $$ = ast_name(c, &@1); }
  ;

/* ---- expressions: integers and reals, + - * / %, parentheses, and the
 * functions exp, log and sqrt (sema_expr.c: function_named) ----------- */

expr:
    INT                           { $$ = ast_int(c, &@1); }
  | REAL                          { $$ = ast_real(c, &@1); }
  | ref
  | IDENT '(' expr ')'            { $$ = ast_call(c, &@1, $3, &@$); }
  | IDENT '(' error               { $$ = ast_unclosed(c, &@2, "')'", NULL); }
  | '(' expr ')'                  { $$ = ast_paren(c, $2, &@$); }
  | '(' error                     { $$ = ast_unclosed(c, &@1, "')'", NULL); }
  | '-' expr %prec NEG            { $$ = ast_unary(c, N_NEG, $2, &@$); }
  | expr '+' expr                 { $$ = ast_binary(c, N_ADD, $1, $3, &@$); }
  | expr '-' expr                 { $$ = ast_binary(c, N_SUB, $1, $3, &@$); }
  | expr '*' expr                 { $$ = ast_binary(c, N_MUL, $1, $3, &@$); }
  | expr '/' expr                 { $$ = ast_binary(c, N_DIV, $1, $3, &@$); }
  | expr '%' expr                 { $$ = ast_binary(c, N_MOD, $1, $3, &@$); }
  ;

%%

/* Keeps bison's message pending in diag.c, where an error production may
 * still add a hint before it is sent. */
static void
fgm_yyerror(FGM_YYLTYPE *loc, fgmc *c, void *scanner, const char *msg)
{
    (void)scanner;
    if (!c->parse_stop)     /* the input cut short on purpose */
        diag_syntax(c, *loc, msg);
}
