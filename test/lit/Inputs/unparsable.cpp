// Not valid C++: the checker must report the parse error and exit nonzero.
void broken( {
