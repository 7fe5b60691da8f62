import{d as a,e as b}from"/assets/chunks/chunk-Q4Q5N25T.js";import"/assets/chunks/chunk-DUMTH3NF.js";import"/assets/chunks/chunk-UF73VUI7.js";export{b as show,a as toasters};
