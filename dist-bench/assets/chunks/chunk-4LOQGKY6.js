function e(){return window.matchMedia("(prefers-reduced-motion: reduce)").matches}function o(){return e()?"instant":"smooth"}export{e as a,o as b};
