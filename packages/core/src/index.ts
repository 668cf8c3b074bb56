export * from './constants';
export * from './menu';
export * from './auth/token';
export * from './validation/forms';
export * from './contract/index';
export * from './market/trading-calendar';
export * from './market/earnings';
export * from './indicators/index';
