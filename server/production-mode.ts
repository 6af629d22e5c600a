// Imported first by the server (serve.ts): the code it runs is what `astro
// build` made, in production mode, but the libraries that code imports from
// node_modules at run time (React's server renderer and JSX runtime) choose
// their build by NODE_ENV when they load. Unset, they ran their development
// builds: key warnings, a console task per element and checks on every render
// (a CPU profile of the signed-in home under load had React's development JSX
// runtime as its largest item).
process.env.NODE_ENV = 'production';
