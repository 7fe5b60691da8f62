var t={primary:"btn-primary",outline:"btn-outline",ghost:"btn-ghost"},o={sm:"btn-sm",md:"",lg:"btn-lg"};export{t as a,o as b};
